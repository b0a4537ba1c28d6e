"""A character's card shows the Hit Dice left, and a short rest spends them there, live."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_feedback import _domain_revision
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_fighters_card_shows_the_hit_dice_left_and_a_short_rest_spends_them(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.campaigns.services.characters import character_create_for
    from apps.domains.client import domain_call

    campaign, users = table_for(
        make_user, system_id="dnd5e", name="Inn", players=[("ilsa@example.test", "Ilsa")]
    )
    gm_user, ilsa_user = users["gm@example.test"], users["ilsa@example.test"]
    fighter = character_create_for(
        campaign=campaign, user=ilsa_user,
        form_data={"name": "Ilsa", "template": "fighter", "level": 3},
    ).character_id  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        _say(gm, "set phase play", mode="action")
        _settle(campaign, 1)
        row = ilsa.locator('#turn-character [data-row="hit-dice"]')
        expect(row).to_be_visible()
        expect(row).to_have_text("Hit dice3 of 3 (d10)")
        domain_call(
            system_id="dnd5e", tool="damage_apply", requester=gm_user,
            campaign_id=str(campaign.id),
            arguments={"target_id": fighter, "amount": 20, "idempotency_key": "hurt",
                       "expected_revision": _domain_revision(campaign, gm_user)},
        )  # fmt: skip
        _say(ilsa, "short rest, spend 2 hit dice", mode="action")
        _settle(campaign, 2)
        expect(row.locator('[data-field="hit-dice"]')).to_have_text("1 of 3 (d10)")
