"""The demo tables `make run` sets up: each local system's campaign, both demo players in it
with a character each and the GM's opening action queued, made once however often it runs."""

from __future__ import annotations

import pytest

from apps.campaigns.models import ActorBinding, Campaign, CampaignMembership
from apps.domains.client import domain_call
from apps.rooms.models import Room
from apps.turns.models import RoomTurnJob
from apps.turns.services.demo import demo_tables_ensure

pytestmark = pytest.mark.django_db


def test_demo_tables_seat_both_players_with_a_character_each_once(live_domains, make_user):
    gm = make_user("gm@example.test", display_name="Morgan")
    players = [make_user(f"p{n}@example.test", display_name=f"P{n}") for n in (1, 2)]

    first = demo_tables_ensure(gm=gm, players=players)
    assert [(c.name, c.system_id, c.owner_id) for c in first] == [
        ("The Sunless Keep", "dnd5e", gm.pk),
        ("Harbor Lights", "narrative", gm.pk),
    ]
    again = demo_tables_ensure(gm=gm, players=players)
    assert [c.pk for c in again] == [c.pk for c in first]
    assert Campaign.objects.count() == 2
    for campaign in first:
        roles = dict(
            CampaignMembership.objects.filter(
                campaign=campaign, status=CampaignMembership.Status.ACTIVE
            ).values_list("user__email", "role")
        )
        assert roles == {"gm@example.test": "owner", "p1@example.test": "player",
                         "p2@example.test": "player"}  # fmt: skip
        bound = ActorBinding.objects.filter(campaign=campaign, status="active")
        assert sorted(bound.values_list("user__email", flat=True)) == [
            "p1@example.test",
            "p2@example.test",
        ]
        assert Room.objects.filter(campaign=campaign).count() == 1
    # The narrative table's GM opens play, once: the worker runs it like any room action.
    opening = RoomTurnJob.objects.filter(campaign__owner=gm).values_list(
        "campaign__name", "requester__email", "text", "status"
    )
    assert list(opening) == [("Harbor Lights", "gm@example.test", "set phase play", "queued")]
    # The characters are the domain's own: the player reads theirs back from the server.
    ash = ActorBinding.objects.get(campaign=first[0], user=players[0])
    character = domain_call(
        system_id="dnd5e", tool="character_get", arguments={"character_id": ash.character_id},
        requester=players[0], campaign_id=first[0].domain_id,
    ).structured["character"]  # fmt: skip
    assert (character["name"], character["template"], character["controller"]) == (
        "Ash Emberhand",
        "fighter",
        f"user:{players[0].pk}",
    )
