"""A total's flat tag in the Dice panel, in Chromium: its screen-reader name is the page's
pattern filled in ("%(what)s %(total)s", "total 18" in English), so a translation that puts
the total first is read in its order, not the English one."""

from __future__ import annotations

import pytest

from tests.browser.conftest import table_for
from tests.browser.test_panels_ui import ONE_ROLL
from tests.browser.test_room_live import asgi_server  # noqa: F401

# A line stored with its total alone: its face is the flat total tag.
OLD_INITIATIVE = {"tool": "combat_start", "label": "Initiative · Goblin", "total": 18,
                  "sequence": 300002}  # fmt: skip
ENGLISH = '"named_total": "%(what)s %(total)s"'
REORDERED = '"named_total": "%(total)s (%(what)s)"'


# Run in the page before its modules: once the document is parsed ("interactive"), deferred and
# module scripts have not run yet, so the panels read the rewritten strings.
REWRITE_STRINGS = """document.addEventListener("readystatechange", () => {
  if (document.readyState !== "interactive") return;
  const node = document.getElementById("turn-strings");
  for (const [old, now] of %s) {
    if (!node.textContent.includes(old)) throw new Error("not served: " + old);
    node.textContent = node.textContent.replace(old, now);
  }
});"""


def _room_page(browser, base: str, campaign, *, strings: dict[str, str]):
    """Ilsa's page on the room, its served strings rewritten by `strings` (old -> new)."""
    import json

    from tests.browser.test_room_history import VIEWPORT, _open
    from tests.browser.test_room_live import _sign_in

    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(REWRITE_STRINGS % json.dumps(list(strings.items())))
    page = _sign_in(context, base, "ilsa@example.test", land=False)
    _open(page, f"{base}/campaigns/{campaign.id}/room/")
    return context, page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_total_tag_is_named_in_the_order_its_pattern_gives(
    browser,
    asgi_server,  # noqa: F811
    live_domains,
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Slow Hands",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    for strings, name in (({}, "total 18"), ({ENGLISH: REORDERED}, "18 (total)")):
        context, page = _room_page(browser, asgi_server, campaign, strings=strings)
        try:
            page.evaluate(ONE_ROLL, OLD_INITIATIVE)
            face = page.locator('#turn-dice li[data-dice="combat_start"] .turn-roll__die')
            expect(face).to_have_text("18")
            expect(face).to_have_accessible_name(name)
            expect(face).to_have_attribute("title", "total")
        finally:
            context.close()
