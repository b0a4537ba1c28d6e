"""The game master's one-click options ("Try: …") for a screen reader, in Chromium against
uvicorn: newly offered ones are said once, politely (not again as the panels redraw them), and
taking one says that the composer is now in Action mode."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

CURRENT = "#turn-order li.is-current .turn-combatant__name"
# Every text the region is given, in order (a new node each time, so a repeat is a new text).
RECORD = """() => {
  window.said = [];
  const node = document.getElementById("composer-suggestions-announcer");
  new MutationObserver(() => { if (node.textContent) window.said.push(node.textContent); })
    .observe(node, { childList: true, characterData: true, subtree: true });
}"""
STATE_CHANGED = """() => document.dispatchEvent(new CustomEvent("room:event",
  {detail: {type: "event", event_type: "state.changed", payload: {}}}))"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_new_options_are_said_once_and_taking_one_says_the_mode(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Heard Options") as (
        campaign,
        gm,
        ilsa,
    ):
        jobs = 1
        expect(gm.locator(CURRENT)).to_have_count(1)
        if gm.locator(CURRENT).inner_text() == "Ilsa":
            _say(ilsa, "end turn", mode="action")
            jobs += 1
            _settle(campaign, jobs)
        expect(gm.locator(CURRENT)).to_have_text("Goblin")
        box = gm.locator("#composer-suggestions")
        region = gm.locator("#composer-suggestions-announcer")
        expect(box.locator("button")).to_have_text(["goblin attacks Ilsa", "end turn"])
        expect(region).to_have_attribute("aria-live", "polite")
        # Said as a list of choices in the page's language, not words run together.
        expect(region).to_have_text("Try: goblin attacks Ilsa or end turn")

        # The panels read the same turn again and again: the same options, nothing said.
        gm.evaluate(RECORD)
        for _ in range(3):
            gm.evaluate(STATE_CHANGED)
            gm.wait_for_timeout(400)
        expect(box.locator("button")).to_have_text(["goblin attacks Ilsa", "end turn"])
        assert gm.evaluate("window.said") == []

        # Taken while chatting: the composer moves to Action, and a screen reader hears it.
        gm.locator("#composer").get_by_role("radio", name="Chat").check()
        box.get_by_role("button", name="end turn").click()
        expect(gm.locator("input[name=mode][value=action]")).to_be_checked()
        expect(gm.locator("#composer-body")).to_be_focused()
        expect(gm.locator("#composer-body")).to_have_value("end turn")
        expect(region).to_have_text("Mode: Action")

        # Taken again once in Action mode: nothing changed, nothing more is said.
        gm.evaluate(RECORD)
        box.get_by_role("button", name="goblin attacks Ilsa").click()
        expect(gm.locator("#composer-body")).to_have_value("goblin attacks Ilsa")
        gm.wait_for_timeout(300)
        assert gm.evaluate("window.said") == []
