"""A one-click option outside combat in Chromium (a misspelt command asked back) stays while
others play on (a GM's dice roll) and goes once the phase changes (combat starts)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import fighters_table, gm_and_ilsa_in_the_room
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_option_outside_combat_stays_through_a_roll_and_goes_when_combat_starts(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import Campaign

    campaign, _users, _mine = fighters_table(make_user, name="Quiet Keep", fighters=["Ilsa"])
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(ilsa, "rol 1d20", mode="action")
        _settle(campaign, 1)
        box = ilsa.locator("#composer-suggestions")
        expect(box.locator("button")).to_have_text(["roll 1d20"])
        revision = Campaign.objects.get(pk=campaign.pk).authority_revision

        # The GM rolls: the game's revision moves on, the phase does not.
        _say(gm, "roll 1d20", mode="action")
        _settle(campaign, 2)
        assert Campaign.objects.get(pk=campaign.pk).authority_revision > revision
        expect(ilsa.locator("#turn-dice li")).to_have_count(1)
        ilsa.wait_for_timeout(500)  # the panels' read of the roll's revision
        expect(box.locator("button")).to_have_text(["roll 1d20"])

        # Combat starts: the phase changed, and the option with it.
        _say(gm, "start combat with a goblin", mode="action")
        _settle(campaign, 3)
        expect(ilsa.locator("#turn-order li")).to_have_count(2)
        current = ilsa.locator("#turn-order li.is-current .turn-combatant__name")
        expect(current).to_have_count(1)
        if current.inner_text() == "Ilsa":
            # She won the initiative: what is offered now is for her combat turn.
            expect(box.locator("button")).to_have_text(["attack the goblin", "end turn"])
        else:
            expect(box.locator("button")).to_have_count(0)
            expect(box).to_be_hidden()
