"""Who rolled, in the narrow (300 px) Dice column in Chromium: the viewer's own name and its
"(you)" stay on one line together, and a name too long for the column is cut short with an
ellipsis on that line (the whole of it still in the text and on hover) instead of breaking
over several lines or widening the list. "(you)" comes from the room's own "%(name)s (you)", so
a translation that reorders it reorders the roller too."""

from __future__ import annotations

import pytest

from tests.browser.conftest import table_for
from tests.browser.test_room_dice_combats import ROLLS
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401

DESKTOP = {"width": 1280, "height": 900}
LONG = "Ilsa Marguerite Delacroix-Fontaine of the Western Marches"
# For each roll's title: the line (top) each character of the roller's name and of "(you)"
# is drawn on, and whether the title is wider than its box or its row.
LINES = """(title, name) => {
  const chars = [];
  const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i += 1) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      chars.push([node.data[i], rect ? Math.round(rect.top) : null]);
    }
  }
  const text = chars.map(([c]) => c).join("");
  const start = text.indexOf(name);
  const you = text.indexOf("(you)");
  return {
    nameLines: new Set(chars.slice(start, start + name.length).map(([, top]) => top)).size,
    youTop: chars[you][1],
    nameTop: chars[start][1],
    nameEndTop: chars[start + name.length - 1][1],
    overflows: title.scrollWidth > title.clientWidth + 1
      || title.getBoundingClientRect().right > title.closest("li").getBoundingClientRect().right,
  };
}"""


def _roll(label: str, by: str, by_id: str) -> dict:
    return {"tool": "roll", "label": label, "expression": "1d20", "total": 14, "by": by,
            "by_id": by_id}  # fmt: skip


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_rollers_you_stays_beside_the_name_and_a_long_name_is_cut_with_an_ellipsis(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Narrow Dice",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    context = browser.new_context(viewport=DESKTOP)
    try:
        ilsa = _sign_in(context, asgi_server, "ilsa@example.test")
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        me = ilsa.evaluate('document.getElementById("turn-panels").dataset.user')
        ilsa.evaluate(
            ROLLS,
            [430001, [_roll("Perception", "Ilsa Player", me), _roll("Stealth", LONG, me)]],
        )
        titles = ilsa.locator("#turn-dice .turn-roll__title")
        expect(titles).to_have_count(2)
        # The column is the narrow one this is about.
        assert ilsa.locator(".room__side").evaluate("n => n.clientWidth") == 300

        for title, name in ((titles.nth(0), "Ilsa Player"), (titles.nth(1), LONG)):
            lines = title.evaluate(LINES, name)
            assert lines["nameLines"] == 1, lines
            assert lines["youTop"] == lines["nameTop"] == lines["nameEndTop"], lines
            assert lines["overflows"] is False, lines
        # Cut short to the eye only: the whole name is read, and shown on hover.
        expect(titles.nth(1)).to_have_text(f"Stealth · {LONG} (you)")
        long_name = titles.nth(1).locator(".turn-roll__by")
        expect(long_name).to_have_attribute("title", f"{LONG} (you)")
        assert long_name.evaluate(
            "n => { const name = n.querySelector('.turn-roll__by-name');"
            " return getComputedStyle(name).textOverflow === 'ellipsis'"
            " && name.scrollWidth > name.clientWidth; }"
        )
    finally:
        context.close()


# A translator's word order for the viewer's own name, unlike English's.
REORDERED = {"%(name)s (you)": "(you) %(name)s"}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_rollers_you_follows_the_translated_word_order(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
    monkeypatch,
):
    from playwright.sync_api import expect

    from apps.rooms import views

    monkeypatch.setattr(views, "_", lambda text: REORDERED.get(text, text))
    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Reordered Dice",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    context = browser.new_context(viewport=DESKTOP)
    try:
        ilsa = _sign_in(context, asgi_server, "ilsa@example.test")
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        me = ilsa.evaluate('document.getElementById("turn-panels").dataset.user')
        gm_id = str(users["gm@example.test"].id)
        rolls = [
            _roll("Perception", "Ilsa Player", me),
            _roll("Stealth", LONG, me),
            _roll("Insight", "Gail GM", gm_id),
        ]
        ilsa.evaluate(ROLLS, [430001, rolls])
        titles = ilsa.locator("#turn-dice .turn-roll__title")
        expect(titles).to_have_text(
            [
                "Perception · (you) Ilsa Player",
                f"Stealth · (you) {LONG}",
                "Insight · Gail GM",
            ]
        )
        bys = ilsa.locator("#turn-dice .turn-roll__by")
        assert [by.get_attribute("title") for by in bys.all()] == [
            "(you) Ilsa Player", f"(you) {LONG}", "Gail GM",
        ]  # fmt: skip
        # Still one piece on one line, the long name cut short after "(you)".
        for title, name in ((titles.nth(0), "Ilsa Player"), (titles.nth(1), LONG)):
            lines = title.evaluate(LINES, name)
            assert lines["nameLines"] == 1, lines
            assert lines["youTop"] == lines["nameTop"] == lines["nameEndTop"], lines
            assert lines["overflows"] is False, lines
    finally:
        context.close()
