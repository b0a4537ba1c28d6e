"""Outside combat, a one-click option answers the player's last action (a misspelt command
asked back): once the player acts again their own way, in Chromium, it is gone and does not
come back, neither live nor after a reload."""

from __future__ import annotations

import pytest

from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_option_outside_combat_goes_once_the_player_acts_again(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users, _mine = fighters_table(make_user, name="Quiet Keep", fighters=["Ilsa"])
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        _say(ilsa, "rol 1d20", mode="action")
        _settle(campaign, 1)
        box = ilsa.locator("#composer-suggestions")
        expect(box.locator("button")).to_have_text(["roll 1d20"])

        # She types a roll of her own instead: that answered the option.
        _say(ilsa, "roll 1d4", mode="action")
        _settle(campaign, 2)
        expect(ilsa.locator("#turn-dice li")).to_have_count(1)
        ilsa.wait_for_timeout(500)  # the panels' read of the roll's revision
        expect(box.locator("button")).to_have_count(0)
        expect(box).to_be_hidden()

        # Nor is it offered again when the page opens afresh.
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        expect(ilsa.locator("#turn-dice li")).to_have_count(1)
        ilsa.wait_for_timeout(500)
        expect(box.locator("button")).to_have_count(0)
        expect(box).to_be_hidden()
