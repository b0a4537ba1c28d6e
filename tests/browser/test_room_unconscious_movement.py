"""The initiative list in Chromium says no movement left for a combatant that cannot move: one
dying at 0 HP (unconscious) whose go it is shows where it lies, not "30 ft of movement left",
whatever movement the domain's turn budget still reports."""

from __future__ import annotations

import json
import re

import pytest

from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room
from tests.browser.test_room_feedback import _drop_to_zero
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


def _her_go(character_id: str, budget: dict):
    """A panel route handler: the combat as the server reads it, but `character_id`'s go with
    `budget["feet"]` of movement in every turn budget."""
    from playwright.sync_api import Error

    def handle(route):
        try:
            response = route.fetch()
            panel = json.loads(response.text())
            combat = panel["panels"]["combat"]["data"]["combat"]
            combat["current"] = character_id
            for entry in combat["order"]:
                entry["budget"] = {**(entry.get("budget") or {}), "movement": budget["feet"]}
            route.fulfill(response=response, json=panel)
        except Error:
            pass  # a read the page's own navigation cut short

    return handle


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_unconscious_combatants_go_shows_no_movement_left(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, users, mine = fighters_table(make_user, name="Still Keep", fighters=("Ilsa",))
    gm_user, (ilsa_id,) = users["gm@example.test"], mine
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        _drop_to_zero(campaign, gm_user, ilsa_id)
        _say(gm, "start combat with a goblin", mode="action")
        _settle(campaign, 2)
        expect(ilsa.locator(f'#turn-order li[data-id="{ilsa_id}"]')).to_contain_text("Dying")

        # Her go, with the movement a budget may still report (30 ft, or 0): read from the
        # panel the page itself is drawn from.
        budget = {}
        ilsa.route("**/room/panel*", _her_go(ilsa_id, budget))
        for feet in (30, 0):
            budget["feet"] = feet
            _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
            row = ilsa.locator(f'#turn-order li[data-id="{ilsa_id}"]')
            expect(row).to_have_class("turn-combatant is-current is-dying")
            conditions = row.locator(".turn-combatant__conditions")
            expect(conditions).to_contain_text("unconscious")
            place = row.locator(".turn-combatant__place")
            expect(place).to_have_text(re.compile(r"^at \(\d+, \d+\)$"))
            expect(row).not_to_contain_text("movement")
