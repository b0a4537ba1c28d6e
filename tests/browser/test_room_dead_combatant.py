"""A combatant who died of failed death saves, in the initiative list of a real browser: the
GM and its player read "dead", not the conditions of the dying that led there."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_feedback import _domain_revision
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_dead_combatant_is_listed_as_dead_alone(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.models import ActorBinding
    from apps.domains.client import domain_call

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Last Stand") as (
        campaign,
        gm,
        ilsa,
    ):
        gm_user = campaign.owner
        binding = ActorBinding.objects.get(campaign=campaign)
        # Down at 0 HP (prone, unconscious), then three hits on the ground: three failures.
        for n, amount in enumerate((12, 1, 1, 1)):
            domain_call(
                system_id="dnd5e", tool="damage_apply", requester=gm_user,
                campaign_id=str(campaign.id),
                arguments={"target_id": binding.character_id, "amount": amount,
                           "idempotency_key": f"fall-{n}",
                           "expected_revision": _domain_revision(campaign, gm_user)},
            )  # fmt: skip
        # The panels are read again after a turn: the goblin's ends.
        _say(gm, "end turn", mode="action")
        _settle(campaign, 2)
        for page in (gm, ilsa):
            _open(page, f"{asgi_server}/campaigns/{campaign.id}/room/")
            row = page.locator("#turn-order li", has_text="Ilsa")
            expect(row.locator(".turn-combatant__conditions")).to_have_text("Dead")
