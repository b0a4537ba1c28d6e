"""The demo tables `make run` sets up: each local system's campaign, both demo players in it
with their characters (the D&D table's cleric among them) and the GM's opening action queued,
made once however often it runs."""

from __future__ import annotations

import pytest

from apps.campaigns.models import ActorBinding, Campaign, CampaignMembership
from apps.domains.client import domain_call
from apps.rooms.models import Room
from apps.turns.models import RoomTurnJob
from apps.turns.services.demo import demo_tables_ensure

pytestmark = pytest.mark.django_db


def _bindings() -> list[tuple[str, str, str, str]]:
    """(table, player, character, status) of every binding, sorted."""
    return sorted(
        ActorBinding.objects.values_list(
            "campaign__name", "user__email", "character_name", "status"
        )
    )


def _people(make_user):
    gm = make_user("gm@example.test", display_name="Morgan")
    return gm, [make_user(f"p{n}@example.test", display_name=f"P{n}") for n in (1, 2)]


def _keep_characters(campaign, gm) -> list[str]:
    """The names of the characters the dnd5e server holds at the table, as its GM reads them."""
    listed = domain_call(
        system_id="dnd5e", tool="campaign_get", arguments={}, requester=gm,
        campaign_id=campaign.domain_id,
    ).structured["campaign"]["characters"]  # fmt: skip
    return sorted(c["name"] for c in listed)


def test_demo_tables_seat_both_players_with_their_characters_once(live_domains, make_user):
    gm, players = _people(make_user)

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
        assert Room.objects.filter(campaign=campaign).count() == 1
    # Made once, each bound to its player; the second player also plays the keep's cleric.
    assert _bindings() == [
        ("Harbor Lights", "p1@example.test", "Ash Marlowe", "active"),
        ("Harbor Lights", "p2@example.test", "Briar Vance", "active"),
        ("The Sunless Keep", "p1@example.test", "Ash Emberhand", "active"),
        ("The Sunless Keep", "p2@example.test", "Briar Quickstep", "active"),
        ("The Sunless Keep", "p2@example.test", "Corin Dawnward", "active"),
    ]
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

    gm, players = _people(make_user)
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


def test_the_sunless_keeps_cleric_is_the_second_players_and_casts_bless(
    live_domains, make_user, django_capture_on_commit_callbacks
):
    """Someone at the D&D table can cast a spell: the second player also plays a level 1 cleric
    the rules give spell slots, and acts as it by choosing it, like any second character."""
    from apps.campaigns.selectors import membership_for
    from apps.rooms.models import Message
    from apps.turns.services import turn_action_submit, turn_run

    gm, players = _people(make_user)
    sunless = demo_tables_ensure(gm=gm, players=players).campaigns[0]
    corin = ActorBinding.objects.get(campaign=sunless, character_name="Corin Dawnward")
    assert (corin.user, corin.can_control) == (players[1], True)

    def corin_read():
        return domain_call(
            system_id="dnd5e", tool="character_get",
            arguments={"character_id": corin.character_id}, requester=players[1],
            campaign_id=sunless.domain_id,
        ).structured["character"]  # fmt: skip

    character = corin_read()
    assert (
        character["name"],
        character["template"],
        character["level"],
        character["controller"],
        character["spell_slots"],
    ) == ("Corin Dawnward", "cleric", 1, f"user:{players[1].pk}", {"1": {"current": 2, "max": 2}})

    # Spells are cast in play: the GM opens it, then the player casts as the cleric.
    said = []
    for user, text, chosen in (
        (gm, "set phase play", ""),
        (players[1], "cast bless on Ash, Briar and me", corin.character_id),
    ):
        with django_capture_on_commit_callbacks(execute=False):
            job, _created = turn_action_submit(
                membership=membership_for(campaign_id=sunless.id, user=user), text=text,
                idempotency_key=f"demo-{len(said)}", character_id=chosen,
            )  # fmt: skip
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
        said.append(
            list(
                Message.objects.filter(event_type="turn.narration", data__job_id=str(job.pk))
                .order_by("sequence")
                .values_list("body", flat=True)
            )
        )
    assert said[1] == [
        "Corin Dawnward casts Bless on Ash Emberhand, Briar Quickstep and Corin Dawnward: each "
        "adds 1d4 to attack rolls and saving throws while Corin Dawnward keeps concentrating. "
        "Corin Dawnward has 1 level 1 spell slot left."
    ]
    assert corin_read()["spell_slots"] == {"1": {"current": 1, "max": 2}}


def test_a_keep_seeded_before_its_cleric_gains_the_cleric_once(
    live_domains, make_user, monkeypatch
):
    """An install whose tables were set up before the cleric sat at them: the next runs add
    Corin Dawnward once, and make nobody's character again."""
    from dataclasses import replace

    from apps.turns.services import demo

    gm, players = _people(make_user)
    # The tables as they were: each player's first character only.
    earlier = tuple(
        replace(t, characters=tuple(mine[:1] for mine in t.characters)) for t in demo.DEMO_TABLES
    )
    monkeypatch.setattr(demo, "DEMO_TABLES", earlier)
    sunless = demo_tables_ensure(gm=gm, players=players).campaigns[0]
    assert _keep_characters(sunless, gm) == ["Ash Emberhand", "Briar Quickstep"]
    monkeypatch.undo()

    for _run in range(2):
        again = demo_tables_ensure(gm=gm, players=players)
        assert (again.campaigns[0].pk, again.failures) == (sunless.pk, [])
    assert _keep_characters(sunless, gm) == ["Ash Emberhand", "Briar Quickstep", "Corin Dawnward"]
    assert [b for b in _bindings() if b[0] == "The Sunless Keep"] == [
        ("The Sunless Keep", "p1@example.test", "Ash Emberhand", "active"),
        ("The Sunless Keep", "p2@example.test", "Briar Quickstep", "active"),
        ("The Sunless Keep", "p2@example.test", "Corin Dawnward", "active"),
    ]


def test_a_demo_character_the_gm_unbound_is_not_made_again(live_domains, make_user):
    from apps.campaigns.services.characters import binding_remove

    gm, players = _people(make_user)
    sunless = demo_tables_ensure(gm=gm, players=players).campaigns[0]
    corin = ActorBinding.objects.get(campaign=sunless, character_name="Corin Dawnward")
    binding_remove(campaign=sunless, actor=gm, user=players[1], character_id=corin.character_id)

    again = demo_tables_ensure(gm=gm, players=players)
    assert (again.campaigns[0].pk, again.failures) == (sunless.pk, [])
    assert _keep_characters(sunless, gm) == ["Ash Emberhand", "Briar Quickstep", "Corin Dawnward"]
    assert [b for b in _bindings() if b[0] == "The Sunless Keep"] == [
        ("The Sunless Keep", "p1@example.test", "Ash Emberhand", "active"),
        ("The Sunless Keep", "p2@example.test", "Briar Quickstep", "active"),
        ("The Sunless Keep", "p2@example.test", "Corin Dawnward", "removed"),
    ]


def test_a_player_who_plays_a_character_of_their_own_is_given_none_of_the_demos(
    live_domains, make_user, monkeypatch
):
    """As before the cleric sat at the table: the demo's characters are not pressed on a player
    who already controls one they made."""
    from dataclasses import replace

    from apps.campaigns.services.characters import character_create_for
    from apps.turns.services import demo

    gm, players = _people(make_user)
    # Seated with no character of the demo's, the second player makes their own.
    keep = replace(demo.DEMO_TABLES[0], characters=demo.DEMO_TABLES[0].characters[:1])
    monkeypatch.setattr(demo, "DEMO_TABLES", (keep,))
    sunless = demo_tables_ensure(gm=gm, players=players).campaigns[0]
    character_create_for(
        campaign=sunless, user=players[1], form_data={"name": "Zed", "template": "wizard",
                                                      "level": 1},
    )  # fmt: skip
    monkeypatch.undo()

    again = demo_tables_ensure(gm=gm, players=players)
    assert (again.campaigns[0].pk, again.failures) == (sunless.pk, [])
    assert _keep_characters(sunless, gm) == ["Ash Emberhand", "Zed"]
    assert [b for b in _bindings() if b[0] == "The Sunless Keep"] == [
        ("The Sunless Keep", "p1@example.test", "Ash Emberhand", "active"),
        ("The Sunless Keep", "p2@example.test", "Zed", "active"),
    ]
