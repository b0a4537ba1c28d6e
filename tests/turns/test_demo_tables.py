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

    first = demo_tables_ensure(gm=gm, players=players).campaigns
    assert [(c.name, c.system_id, c.owner_id) for c in first] == [
        ("The Sunless Keep", "dnd5e", gm.pk),
        ("Harbor Lights", "narrative", gm.pk),
    ]
    again = demo_tables_ensure(gm=gm, players=players)
    assert ([c.pk for c in again.campaigns], again.failures) == ([c.pk for c in first], [])
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


def test_demo_tables_leave_out_a_player_who_left_or_was_removed(live_domains, make_user):
    from apps.campaigns.models import JoinRequest
    from apps.campaigns.services.membership import membership_leave, membership_remove

    gm = make_user("gm@example.test", display_name="Morgan")
    players = [make_user(f"p{n}@example.test", display_name=f"P{n}") for n in (1, 2)]
    sunless, harbor = demo_tables_ensure(gm=gm, players=players).campaigns
    membership_remove(campaign=sunless, actor=gm, user=players[0])
    membership_leave(campaign=harbor, user=players[1])

    again = demo_tables_ensure(gm=gm, players=players)
    assert ([c.pk for c in again.campaigns], again.failures) == ([sunless.pk, harbor.pk], [])
    statuses = CampaignMembership.objects.filter(user__in=players).values_list(
        "campaign__name", "user__email", "status"
    )
    assert sorted(statuses) == [
        ("Harbor Lights", "p1@example.test", "active"),
        ("Harbor Lights", "p2@example.test", "left"),
        ("The Sunless Keep", "p1@example.test", "removed"),
        ("The Sunless Keep", "p2@example.test", "active"),
    ]
    # Nobody asked to join again in their name: each request is the first seating's, approved.
    assert sorted(JoinRequest.objects.values_list("user__email", "status")) == [
        ("p1@example.test", "approved"),
        ("p1@example.test", "approved"),
        ("p2@example.test", "approved"),
        ("p2@example.test", "approved"),
    ]
