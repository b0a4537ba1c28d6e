"""Suggestions name the turn the agent made them for, not whatever turn the room reached by the
time they were published: another turn of the room may publish first (a publication that failed
is tried again later), and options labelled with that later turn would be shown for it ("end
turn" ending someone else's)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.rooms.models import Message
from apps.turns.models import Operation, RoomTurnJob
from apps.turns.services import turn_action_submit, turn_run
from tests.turns.test_jobs import _fighter

pytestmark = pytest.mark.django_db


def _submit(room, user, text, key):
    job, _ = turn_action_submit(membership=room.membership(user), text=text, idempotency_key=key)
    return job


def _ended(job) -> tuple[dict, int]:
    """What the job's end turn returned, and the revision its receipt names."""
    (op,) = Operation.objects.filter(job=job, tool="combat_end_turn")
    result = op.result["structuredContent"]
    return result, result["receipt"]["authority_revision"]


def _turns_offered(job) -> list[dict]:
    return [
        m.data["turn"]
        for m in Message.objects.filter(
            event_type="turn.suggestions", data__job_id=str(job.pk)
        ).order_by("sequence")
    ]


def test_options_published_after_a_later_turn_name_the_turn_they_were_made_for(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks, turns_stay_queued
):
    room = dnd_room
    ilsa = _fighter(room, room.player, "Ilsa").character_id
    with django_capture_on_commit_callbacks(execute=False):
        start = _submit(room, room.gm, "start combat with a goblin", "k-start")
        assert turn_run(job_id=start.pk, heartbeat=False) == "succeeded"
        first = _submit(room, room.gm, "end turn", "k-end-1")
    # The first end turn commits on the domain, but its publication fails and waits.
    monkeypatch.setenv("SAGASMITH_TURN_FAULT", "fail_publish:1")
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=first.pk, heartbeat=False) == "waiting"
    monkeypatch.delenv("SAGASMITH_TURN_FAULT")
    # A second end turn runs and publishes meanwhile: the combat moves on.
    with django_capture_on_commit_callbacks(execute=False):
        second = _submit(room, room.gm, "end turn", "k-end-2")
        assert turn_run(job_id=second.pk, heartbeat=False) == "succeeded"
        RoomTurnJob.objects.filter(pk=first.pk).update(available_at=timezone.now())
        assert turn_run(job_id=first.pk, heartbeat=False) == "succeeded"
    handed, revision = _ended(first)
    later, later_revision = _ended(second)
    assert (handed["round"], later["round"], later_revision) == (1, 2, revision + 1)
    assert later["current"] != handed["current"]
    turn = {
        "revision": revision,
        "phase": "combat",
        "round": 1,
        "combatant": handed["current"],
        "known": True,
    }
    # The GM's options, and on Ilsa's turn hers too: each names the turn the end turn began.
    assert _turns_offered(first) == ([turn, turn] if handed["current"] == ilsa else [turn])
