"""The badges of the initiative list and the character card in Chromium, in one style: each
starts with a capital whatever case the domain's word has ("Monster", "Unhurt", "Bless"), and the
conditions beside them read as a phrase ("Prone, poisoned"); a spell's own name keeps its
capitals ("Shield of Faith"). The text itself is cased, so a screen reader hears what is seen."""

from __future__ import annotations

import json

import pytest

from tests.browser.test_combat_panel_spell_effects import _fight
from tests.browser.test_combat_panel_statuses import _row
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import asgi_server  # noqa: F401

# The seen words of every badge in the initiative list and on the card, as the DOM holds them
# (a CSS text-transform would leave these lower-case): an effect's seen name, not its heard words.
BADGE_WORDS = """() => [...document.querySelectorAll(
    "#turn-order .badge, #turn-character .badge:not([hidden])")]
  .map((badge) => (badge.querySelector(".turn-state__name") || badge).textContent.trim())"""


def _lower_cased(ids: dict[str, str]):
    """A panel route handler: the goblin as a player's read may carry it, with conditions and
    an effect named by its spell's key alone, all in the domain's lower case."""
    from playwright.sync_api import Error

    def handle(route):
        try:
            response = route.fetch()
            panel = json.loads(response.text())
            for entry in panel["panels"]["combat"]["data"]["combat"]["order"]:
                if entry["id"] == ids["goblin"]:
                    entry["character"]["conditions"] = ["prone", "poisoned"]
                    entry["character"]["effects"] = [{"spell": "bless", "dice": "1d4"}]
            route.fulfill(response=response, json=panel)
        except Error:
            pass  # a read the page's own navigation cut short

    return handle


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_badge_and_the_conditions_read_in_sentence_case(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with _fight(browser, asgi_server, make_user, warded="Bram") as (campaign, _users, ids, pages):
        _gm, _ilsa, bram = pages
        bram.route("**/room/panel*", _lower_cased(ids))
        _open(bram, f"{asgi_server}/campaigns/{campaign.id}/room/")
        goblin = _row(bram, ids["goblin"])
        expect(goblin.locator(".turn-kind")).to_have_text("Monster")
        expect(goblin.locator(".turn-status")).to_have_text("Unhurt")
        expect(goblin.locator(".turn-combatant__conditions")).to_have_text("Prone, poisoned")
        expect(goblin.locator(".turn-state__name")).to_have_text("Bless")
        expect(goblin.locator(".turn-state .sr-only")).to_have_text("Bless: +1d4")
        expect(_row(bram, ids["Bram"]).locator(".turn-state__name")).to_have_text("Shield of Faith")
        words = bram.evaluate(BADGE_WORDS)
        # Bram's card says "Unhurt" too.
        assert sorted(words) == sorted(
            ["Monster", "Unhurt", "Bless", "Shield of Faith", "Concentrating: Shield of Faith"]
            + ["Unhurt"]
        ), words
