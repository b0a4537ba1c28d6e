"""The note the room reads of a public action answered to its requester alone, when that
requester is the GM: the action was answered privately, not "the game master answered" the
game master; a player's note keeps its wording."""

from __future__ import annotations

import pytest

from tests.turns.test_private_answers import answers_alone, room_lines, run

pytestmark = pytest.mark.django_db


def test_the_gms_own_refused_action_is_noted_as_answered_privately(
    dnd_room, django_capture_on_commit_callbacks
):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job = run(room, room.gm, "attack the goblin")
    (refusal, note) = room_lines(job)
    assert refusal[:2] == ("turn.narration", "private")
    assert refusal[3] == [str(room.gm.pk)]
    assert note == (
        "turn.outcome", "public", f"{room.gm.label}'s action was answered privately.", [],
    )  # fmt: skip


def test_a_gms_private_answer_from_the_game_state_is_noted_the_same_way(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    answers_alone(monkeypatch)
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job = run(room, room.gm, "how old is the campaign")
    assert [line[:3] for line in room_lines(job)] == [
        ("turn.narration", "private", "The campaign is young."),
        ("turn.outcome", "public", f"{room.gm.label}'s action was answered privately."),
    ]


def test_the_gms_narration_answered_privately_is_noted_as_narration(
    dnd_room, django_capture_on_commit_callbacks
):
    from apps.turns.services import turn_action_submit, turn_run

    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = turn_action_submit(
            membership=room.membership(room.gm), text="attack the goblin",
            idempotency_key="k-narrated-attack", task="narration",
        )  # fmt: skip
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    (refusal, note) = room_lines(job)
    assert refusal[:2] == ("turn.narration", "private")
    assert note == (
        "turn.outcome", "public", f"{room.gm.label}'s narration was answered privately.", [],
    )  # fmt: skip
