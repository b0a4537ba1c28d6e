"""What axe cannot check: the ring that shows where the keyboard focus is stands out at 3:1 from
what surrounds it (WCAG 2.1 1.4.11), on the light page, on a card and in the dark top bar,
in a real browser moving the focus with Tab."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401

DESKTOP = {"width": 1280, "height": 900}

# Each focusable element's border colour before it has the focus: a border that changes colour
# on focus is part of its focus indicator (a text field's), one that stays is not (a button's).
# A field focused on opening is let go first, or its focused border would pass for its own.
MARK_FOCUSABLE = """() => {
  document.activeElement?.blur();
  const els = document.querySelectorAll("a[href], button, input, select, textarea, [tabindex]");
  return [...els].map((el, i) => {
    el.dataset.ringIndex = i;
    return getComputedStyle(el).borderTopColor;
  });
}"""

# The focused element, and the contrast of its outline and of its border against the colour
# behind them: the first ancestor with an opaque background (the outline is drawn outside the
# element, with a gap).
FOCUSED = """([bordersBefore, kinds]) => {
  const el = document.activeElement;
  if (!el || el === document.body || el.dataset.ringIndex === undefined) return null;
  if (!el.matches(kinds)) return {index: el.dataset.ringIndex, name: "", contrast: 21};
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const lin = (v) => (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  let behind = [255, 255, 255];
  for (let node = el.parentElement; node; node = node.parentElement) {
    const bg = rgb(getComputedStyle(node).backgroundColor);
    if (bg.length === 3 || bg[3] === 1) { behind = bg.slice(0, 3); break; }
  }
  const style = getComputedStyle(el);
  const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0
    ? ratio(rgb(style.outlineColor), behind) : 0;
  const border = style.borderTopColor !== bordersBefore[el.dataset.ringIndex]
    && parseFloat(style.borderTopWidth) > 0 ? ratio(rgb(style.borderTopColor), behind) : 0;
  const name = (el.id ? "#" + el.id : el.tagName.toLowerCase())
    + " " + (el.getAttribute("aria-label") || el.textContent || el.name || "").trim().slice(0, 30);
  return {index: el.dataset.ringIndex, name, contrast: Math.max(ring, border)};
}"""


def _faint_focus_rings(page, kinds: str) -> list[str]:
    """Every element matching the selector `kinds` reached with Tab whose focus indicator is
    under 3:1 against what surrounds it, as "element name: ratio". Fails unless Tab reached
    one such element at least."""
    borders = page.evaluate(MARK_FOCUSABLE)
    seen, checked, faint = set(), 0, []
    for _ in range(len(borders) + 1):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED, [borders, kinds])
        if focused is None or focused["index"] in seen:
            continue
        seen.add(focused["index"])
        checked += bool(focused["name"])
        if focused["contrast"] < 3:
            faint.append(f"{focused['name']}: {focused['contrast']:.2f}")
    assert checked, f"Tab reached no {kinds} on {page.url}"
    return faint


def _assert_rings_stand_out(page, kinds: str) -> None:
    faint = _faint_focus_rings(page, kinds)
    assert faint == [], f"faint focus on {page.url}:\n" + "\n".join(faint)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_focus_ring_of_links_and_buttons_stands_out_on_the_page_a_card_and_the_top_bar(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from tests.rooms.factories import make_campaign

    make_campaign(make_user("gm@example.test", display_name="Gail GM"))
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{asgi_server}/accounts/login/")
        _assert_rings_stand_out(page, "a, button")
        page = _sign_in(context, asgi_server, "gm@example.test")
        _assert_rings_stand_out(page, "a, button")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_focused_checkbox_or_radio_button_shows_a_ring_that_stands_out(
    browser,
    asgi_server,  # noqa: F811
    make_user,
    settings,
):
    # A configured system, so the new-campaign form shows its radio buttons.
    settings.SAGASMITH_DOMAINS = {"narrative": {"url": "http://127.0.0.1:1/mcp"}}
    make_user("gm@example.test", display_name="Gail GM")
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{asgi_server}/accounts/login/")
        _assert_rings_stand_out(page, "input[type=checkbox]")
        page = _sign_in(context, asgi_server, "gm@example.test")
        page.goto(f"{asgi_server}/campaigns/new")
        _assert_rings_stand_out(page, "input[type=radio]")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_room_message_list_reached_with_tab_shows_a_ring_that_stands_out(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from tests.browser.test_room_history import _open
    from tests.rooms.factories import make_campaign

    campaign, _ = make_campaign(make_user("gm@example.test", display_name="Gail GM"))
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = _sign_in(context, asgi_server, "gm@example.test")
        _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
        _assert_rings_stand_out(page, "#timeline")
    finally:
        context.close()
