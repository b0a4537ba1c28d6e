"""The operation journal belongs to the attempt that holds the job: a worker the sweep took the
turn from cannot rewrite a step a later attempt answered."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import apps.turns.tool_calls as tool_calls
from apps.domains.client import domain_call
from apps.domains.errors import DomainError
from apps.quota.models import LedgerEntry
from apps.turns.models import Operation, RoomTurnJob
from apps.turns.services import turn_recovery_sweep, turn_run
from tests.turns.test_jobs import narrations, submit

pytestmark = pytest.mark.django_db


def test_a_late_answer_to_a_stale_workers_send_leaves_the_later_attempts_result(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks, turns_stay_queued
):
    """Worker A sends the roll and stalls past its lease; the sweep requeues the turn and
    worker B re-sends the step (same key), which commits, but B's publication fails, so the
    turn waits. Then A's send is answered: refused before the domain looked up its key (its
    delegation had expired). That answer is about A's send only: the step stays as B
    journaled it, and the turn is published and charged with its committed roll."""
    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    stalled = {"a": True}

    def sends(**kw):
        if not stalled.pop("a", False):
            return domain_call(**kw)
        # While A's send is under way: its lease runs out and B takes the turn.
        RoomTurnJob.objects.filter(pk=job.pk).update(
            lease_expires_at=timezone.now() - timedelta(seconds=1)
        )
        with django_capture_on_commit_callbacks(execute=True):
            assert turn_recovery_sweep()["requeued"] == 1
        RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
        monkeypatch.setenv("SAGASMITH_TURN_FAULT", "fail_publish:2")
        with django_capture_on_commit_callbacks(execute=True):
            assert turn_run(job_id=job.pk, worker="B", heartbeat=False) == "waiting"
        monkeypatch.delenv("SAGASMITH_TURN_FAULT")
        assert Operation.objects.get(job=job).state == "returned"
        raise DomainError(
            "The delegation token has expired.", domain_code="authorization_denied",
            system_id="dnd5e", tool=kw["tool"], retryable=False, recovery="",
        )  # fmt: skip

    monkeypatch.setattr(tool_calls, "domain_call", sends)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, worker="A", heartbeat=False) == "lease_lost"
    op = Operation.objects.get(job=job)
    assert (op.step, op.state, op.attempt, op.error) == (1, "returned", 2, None)

    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, worker="C", heartbeat=False) == "succeeded"
    job.refresh_from_db()
    assert (job.status, job.attempt, job.charged) == ("succeeded", 3, 2)
    assert room.domain_revision() == before + 1
    (narration,) = narrations(job)
    assert narration.data["dice"][0]["expression"] == "1d20"
    (entry,) = LedgerEntry.objects.filter(reservation_id=job.reservation_id)
    assert (entry.kind, entry.amount) == ("charge", 2)
