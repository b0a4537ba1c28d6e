"""The room's turn panels in Chromium with real turns (a live dnd5e server, the turn worker in
Celery's eager mode): what a player sees in the side panels after the connection comes back, and
other things a table notices while playing."""

from __future__ import annotations

import pytest

from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.conftest import live_domains  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_panels_show_a_combat_started_while_the_player_was_offline_once_reconnected(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, _mine = fighters_table(make_user, name="Offline Keep", fighters=["Ilsa"])
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        expect(ilsa.locator("#phase-panel .badge--phase")).to_have_text("Lobby")
        ilsa.context.set_offline(True)
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "reconnecting")

        _say(gm, "start combat with a goblin", mode="action")
        _settle(campaign, 1)
        expect(gm.locator("#turn-order > li")).to_have_count(2)

        ilsa.context.set_offline(False)
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "live")
        # The timeline caught up with the combat's start; the panels beside it follow it.
        expect(ilsa.locator("#turn-combat")).to_be_visible()
        expect(ilsa.locator("#turn-order > li")).to_have_count(2)
        expect(ilsa.locator("#phase-panel .badge--phase")).to_have_text("Combat")
