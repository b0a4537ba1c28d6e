"""One-click options for a combat turn in Chromium last as long as that turn: someone else's
dice roll (a write that advances the game) leaves them, the turn passing takes them away."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

CURRENT = "#turn-order li.is-current .turn-combatant__name"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_players_dice_roll_leaves_the_gms_options_for_the_monsters_turn(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import Campaign

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Dice Keep") as (
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
        expect(box.locator("button")).to_have_text(["goblin attacks Ilsa", "end turn"])
        revision = Campaign.objects.get(pk=campaign.pk).authority_revision

        # Ilsa rolls a die on the goblin's turn: the game moved on, the goblin's turn did not.
        _say(ilsa, "roll 1d20", mode="action")
        _settle(campaign, jobs + 1)
        assert Campaign.objects.get(pk=campaign.pk).authority_revision > revision
        expect(ilsa.locator("#turn-dice li")).not_to_have_count(0)
        expect(gm.locator("#turn-dice li .turn-roll__title").first).to_contain_text("Ilsa")
        gm.wait_for_timeout(500)  # the panels' read of the roll's revision
        expect(gm.locator(CURRENT)).to_have_text("Goblin")
        expect(box.locator("button")).to_have_text(["goblin attacks Ilsa", "end turn"])

        # The GM ends the goblin's turn: what was offered for it is gone, and what is offered
        # now is for Ilsa's turn.
        _say(gm, "end turn", mode="action")
        _settle(campaign, jobs + 2)
        expect(gm.locator(CURRENT)).to_have_text("Ilsa")
        expect(box.locator("button")).to_have_text(["describe", "end Ilsa's turn"])
