"""A character who died of failed death saves, on its player's card in a real browser: the
card says "dead", not the conditions of the dying that led there."""

from __future__ import annotations

import pytest

from tests.browser.conftest import fighters_table, in_the_room
from tests.browser.test_room_feedback import _domain_revision
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_dead_characters_card_lists_no_conditions_of_the_dying(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    from apps.domains.client import domain_call

    campaign, users, mine = fighters_table(make_user, name="The Last Stand", fighters=("Ilsa",))
    gm_user = users["gm@example.test"]
    (ilsa,) = mine
    # Down at 0 HP (prone, unconscious), then three hits on the ground: three failures.
    writes = [("phase_set", {"phase": "play"}), ("damage_apply", {"target_id": ilsa, "amount": 12})]
    writes += [("damage_apply", {"target_id": ilsa, "amount": 1})] * 3
    for n, (tool, arguments) in enumerate(writes):
        domain_call(
            system_id="dnd5e", tool=tool, requester=gm_user, campaign_id=str(campaign.id),
            arguments={**arguments, "idempotency_key": f"fall-{n}",
                       "expected_revision": _domain_revision(campaign, gm_user)},
        )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "ilsa@example.test") as (player,):
        card = player.locator("#turn-character")
        expect(card.locator(".badge", has_text="dead")).to_be_visible()
        expect(card.locator('[data-field="conditions"]').first).to_have_text("None")
