"""The suggestions a turn offers name the turn they are for, so a room page can drop them once
that turn has passed: the campaign's revision and phase, and in combat the round and whose turn
it is, as the combat panel shows them."""

from __future__ import annotations

import pytest

from apps.campaigns.models import Campaign
from apps.rooms.models import Message
from apps.turns.models import Operation
from apps.turns.panels import panel_for_viewer
from apps.turns.services import turn_action_submit, turn_run
from tests.turns.test_jobs import _fighter

pytestmark = pytest.mark.django_db


def _run(room, user, text):
    job, _ = turn_action_submit(
        membership=room.membership(user), text=text, idempotency_key=f"k-{text}"
    )
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    return job


def _turns_offered(job) -> list[dict]:
    return [
        m.data["turn"]
        for m in Message.objects.filter(
            event_type="turn.suggestions", data__job_id=str(job.pk)
        ).order_by("sequence")
    ]


def test_combat_options_name_the_round_and_whose_turn_they_are_for(
    dnd_room, django_capture_on_commit_callbacks
):
    room = dnd_room
    ilsa = _fighter(room, room.player, "Ilsa").character_id
    with django_capture_on_commit_callbacks(execute=False):
        job = _run(room, room.gm, "start combat with a goblin")
    (started,) = Operation.objects.filter(job=job, tool="combat_start")
    combat = started.result["structuredContent"]["combat"]
    campaign = Campaign.objects.get(pk=room.campaign.pk)
    turn = {
        "revision": campaign.authority_revision,
        "phase": "combat",
        "round": combat["round"],
        "combatant": combat["current"],
        "known": True,
    }
    assert combat["round"] == 1
    # The GM's options, and on Ilsa's turn hers too: each event names that one turn.
    assert _turns_offered(job) == ([turn, turn] if combat["current"] == ilsa else [turn])


def test_options_outside_combat_name_no_round_or_combatant(
    dnd_room, django_capture_on_commit_callbacks
):
    room = dnd_room
    panel_for_viewer(membership=room.membership(room.gm))  # the GM's page read the panels
    campaign = Campaign.objects.get(pk=room.campaign.pk)
    with django_capture_on_commit_callbacks(execute=False):
        job = _run(room, room.player, "rol 1d20")  # asked back: "roll 1d20"
    assert _turns_offered(job) == [
        {
            "revision": campaign.authority_revision,
            "phase": campaign.phase,
            "round": None,
            "combatant": None,
            "known": True,
        }
    ]


def test_options_name_the_phase_alone_when_no_read_of_combat_is_stored(
    dnd_room, django_capture_on_commit_callbacks
):
    room = dnd_room
    campaign = Campaign.objects.get(pk=room.campaign.pk)
    with django_capture_on_commit_callbacks(execute=False):
        job = _run(room, room.player, "rol 1d20")
    assert _turns_offered(job) == [
        {
            "revision": campaign.authority_revision,
            "phase": campaign.phase,
            "round": None,
            "combatant": None,
            "known": False,  # a page goes by the phase alone
        }
    ]
