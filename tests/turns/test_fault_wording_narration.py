"""A GM whose narration failed reads advice that speaks of their narration; a player whose
action failed reads advice that speaks of their action."""

from __future__ import annotations

import pytest

from apps.turns.errors import (
    AgentContentFiltered,
    AgentContextTooLong,
    AgentOutputInvalid,
    AgentToolLimit,
    AgentUnavailable,
    TurnCancelled,
    TurnTimedOut,
)
from apps.turns.services import job_view, turn_cancel, turn_run
from tests.turns.test_fault_wording import _agent_raising
from tests.turns.test_jobs import submit

pytestmark = pytest.mark.django_db

ADVICE = [
    (
        AgentContentFiltered,
        "Rephrase the action and try again.",
        "Rephrase the narration and try again.",
    ),
    (
        AgentContextTooLong,
        "Send a shorter action, or split it into smaller steps. If short actions fail too, an "
        "operator must give the agent a model with a longer context or a lower token bound.",
        "Send a shorter narration, or split it into smaller parts. If short narrations fail "
        "too, an operator must give the agent a model with a longer context or a lower token "
        "bound.",
    ),
    (
        AgentOutputInvalid,
        "Rephrase the action and try again.",
        "Rephrase the narration and try again.",
    ),
    (
        AgentToolLimit,
        "Split the action into smaller steps.",
        "Split the narration into smaller parts.",
    ),
    (
        TurnTimedOut,
        "Act again, perhaps with a simpler action.",
        "Send the narration again, perhaps a simpler one.",
    ),
]


NAMES = [error.__name__ for error, _action, _narration in ADVICE]


@pytest.mark.parametrize(("error", "for_action", "for_narration"), ADVICE, ids=NAMES)
def test_a_gm_whose_narration_failed_reads_advice_about_the_narration(
    error, for_action, for_narration, dnd_room, monkeypatch, turns_stay_queued,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    room = dnd_room
    _agent_raising(monkeypatch, error("The turn failed."))
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.gm, text="the ogre hits Ilsa for 7", task="narration")
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    assert job_view(job)["error"]["recovery"] == for_narration


@pytest.mark.parametrize(("error", "for_action", "for_narration"), ADVICE, ids=NAMES)
def test_a_player_whose_action_failed_reads_advice_about_the_action(
    error, for_action, for_narration, dnd_room, monkeypatch, turns_stay_queued,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    room = dnd_room
    _agent_raising(monkeypatch, error("The turn failed."))
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    assert job_view(job)["error"]["recovery"] == for_action


def test_advice_given_where_the_error_was_raised_stands_for_a_narration(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    room = dnd_room
    _agent_raising(monkeypatch, AgentOutputInvalid("The turn failed.", recovery="Ask later."))
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.gm, text="the ogre hits Ilsa for 7", task="narration")
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    assert job_view(job)["error"]["recovery"] == "Ask later."


@pytest.mark.parametrize(
    ("details", "recovery"),
    [
        ({}, "Nothing happened in the game. Send the narration again in a minute."),
        (
            {"retry_after": 3600},
            "Nothing happened in the game. Send the narration again in 60 minutes.",
        ),
    ],
    ids=["out-of-attempts", "wait-too-long"],
)
def test_a_gm_whose_narration_ran_out_of_tries_is_told_to_send_the_narration_again(
    details, recovery, dnd_room, settings, monkeypatch, turns_stay_queued,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    settings.SAGASMITH_TURN_MAX_ATTEMPTS = 1
    room = dnd_room
    _agent_raising(monkeypatch, AgentUnavailable("The endpoint is down.", details=details))
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.gm, text="the ogre hits Ilsa for 7", task="narration")
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    assert (job.retryable, job.recovery) == (False, recovery)


def test_a_gm_whose_narration_was_cancelled_is_told_to_send_the_narration_again(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    room = dnd_room
    _agent_raising(monkeypatch, TurnCancelled("The turn was cancelled."))
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.gm, text="the ogre hits Ilsa for 7", task="narration")
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "cancelled"
    job.refresh_from_db()
    assert job.recovery == "Send the narration again if you still want it."


def test_a_gm_who_cancelled_a_queued_narration_is_told_to_send_the_narration_again(
    dnd_room, turns_stay_queued, django_capture_on_commit_callbacks
):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.gm, text="the ogre hits Ilsa for 7", task="narration")
    cancelled = turn_cancel(job=job, membership=room.membership(room.gm))
    assert (cancelled.status, cancelled.recovery) == (
        "cancelled", "Send the narration again if you still want it."
    )  # fmt: skip
