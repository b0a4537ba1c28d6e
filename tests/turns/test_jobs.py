"""RoomTurnJob lifecycle in-process (eager Celery) against a live dnd5e server."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.projections.models import OutboxEvent
from apps.quota.models import LedgerEntry, Reservation
from apps.rooms.models import Message
from apps.turns.models import Operation, RoomTurnJob
from apps.turns.projections import projection_apply, projection_reads
from apps.turns.selectors import room_turn_job_is_live
from apps.turns.services import (
    turn_action_submit,
    turn_cancel,
    turn_claim,
    turn_recovery_sweep,
    turn_run,
)
from apps.turns.services.run import JournalCaller
from apps.turns.types import AgentMessage, AgentOutput

pytestmark = pytest.mark.django_db


def narrations(job) -> list[Message]:
    return list(
        Message.objects.filter(event_type="turn.narration", data__job_id=str(job.pk)).order_by(
            "sequence"
        )
    )


def submit(room, user, text="roll 1d20", key="action-key-1", **extra):
    return turn_action_submit(
        membership=room.membership(user), text=text, idempotency_key=key, **extra
    )


def test_action_runs_once_end_to_end(dnd_room, eager, django_capture_on_commit_callbacks):
    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=True):
        job, created = submit(room, room.player)
    assert created is True
    job.refresh_from_db()
    assert job.status == RoomTurnJob.Status.SUCCEEDED
    assert job.attempt == 1
    assert job.tools == sorted(job.tools) and "dice_roll" in job.tools and len(job.tools) <= 16
    assert job.trigger_message.mode == "action" and job.trigger_message.body == "roll 1d20"
    ops = list(job.operations.all())
    assert [(op.step, op.tool, op.state, op.write) for op in ops] == [
        (1, "dice_roll", "returned", True)
    ]
    assert ops[0].idempotency_key == f"turn-{job.pk}:1"
    assert ops[0].result["structuredContent"]["receipt"]["authority_revision"] == before + 1
    assert ops[0].result["content"][0]["type"] == "text"
    # Exactly one narration, carrying the dice.
    (narration,) = narrations(job)
    assert narration.audience == "public"
    assert narration.data["dice"][0]["expression"] == "1d20"
    assert narration.data["dice"][0]["total"] == ops[0].result["structuredContent"]["total"]
    # The authority moved once and the projection followed.
    assert room.domain_revision() == before + 1
    room.campaign.refresh_from_db()
    assert room.campaign.authority_revision == before + 1
    assert job.result_revision == before + 1
    changed = OutboxEvent.objects.filter(event_type="state.changed").get()
    assert changed.payload == {
        "authority_revision": before + 1,
        "changed_scopes": ["dice"],
        "entity_ids": [],
        "audience": "public",
    }
    assert changed.audience == "public"
    # Quota: reserved 5, settled 1 (turn) + 1 (tool call).
    reservation = Reservation.objects.get(pk=job.reservation_id)
    assert (reservation.status, reservation.amount, reservation.settled_amount) == (
        "settled",
        5,
        2,
    )
    assert job.charged == 2
    assert LedgerEntry.objects.filter(reservation=reservation).count() == 1
    assert room_turn_job_is_live(str(job.pk)) is False


def test_repeated_key_returns_the_first_job(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    enqueued = []
    monkeypatch.setattr(
        "apps.turns.services.jobs.enqueue_run", lambda job_id: enqueued.append(job_id)
    )
    with django_capture_on_commit_callbacks(execute=True):
        first, created = submit(room, room.player)
        again, created_again = submit(room, room.player)
    assert (created, created_again, again.pk) == (True, False, first.pk)
    assert enqueued == [first.pk]
    assert RoomTurnJob.objects.count() == 1
    assert Message.objects.filter(mode="action").count() == 1
    from apps.core.errors import IdempotencyConflict

    with pytest.raises(IdempotencyConflict):
        submit(room, room.player, text="roll 2d6")


def test_stale_base_revision_changes_nothing(dnd_room):
    from apps.turns.errors import StaleRevision

    room = dnd_room
    counts = (Message.objects.count(), Reservation.objects.count(), OutboxEvent.objects.count())
    with pytest.raises(StaleRevision) as caught:
        submit(room, room.player, base_revision=room.campaign.authority_revision - 1)
    assert caught.value.status == 409
    assert caught.value.details == {
        "base_revision": room.campaign.authority_revision - 1,
        "current_revision": room.campaign.authority_revision,
    }
    assert RoomTurnJob.objects.count() == 0
    after = (Message.objects.count(), Reservation.objects.count(), OutboxEvent.objects.count())
    assert after == counts


def test_claim_is_conditional_and_room_limit_holds(
    dnd_room, settings, django_capture_on_commit_callbacks
):
    room = dnd_room
    settings.SAGASMITH_TURN_ROOM_CONCURRENCY = 1
    with django_capture_on_commit_callbacks(execute=False):
        first, _ = submit(room, room.player, key="k-first-1")
        second, _ = submit(room, room.gm, key="k-second-1")
    claimed, busy = turn_claim(job_id=first.pk, worker="w1")
    assert (claimed.status, claimed.attempt, busy) == ("running", 1, False)
    assert turn_claim(job_id=first.pk, worker="w2") == (None, False)
    RoomTurnJob.objects.filter(pk=second.pk).update(
        available_at=timezone.now() - timedelta(minutes=5)
    )
    assert turn_claim(job_id=second.pk, worker="w2") == (None, True)
    second.refresh_from_db()
    assert (second.status, second.attempt) == ("queued", 0)
    # A busy attempt restarts the sweep's grace: its own retry message is on its way.
    assert timezone.now() - second.available_at < timedelta(seconds=5)
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_recovery_sweep()["reenqueued"] == 0


def test_longest_idempotency_key_is_accepted_and_replays(
    dnd_room, django_capture_on_commit_callbacks
):
    room = dnd_room
    key = "k" * 160
    with django_capture_on_commit_callbacks(execute=False):
        first, created = submit(room, room.player, key=key)
        again, created_again = submit(room, room.player, key=key)
        other, created_other = submit(room, room.player, key="k" * 159 + "j")
    assert (created, created_again, again.pk, created_other) == (True, False, first.pk, True)
    assert other.pk != first.pk


def test_publication_failure_waits_then_publishes_once(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    monkeypatch.setenv("SAGASMITH_TURN_FAULT", "fail_publish:1")
    scheduled = []
    monkeypatch.setattr(
        "apps.turns.services.publish.enqueue_run",
        lambda job_id, countdown: scheduled.append((job_id, countdown)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "waiting"
    assert scheduled == [(job.pk, 2.0)]  # the retry is enqueued on commit, after the backoff
    job.refresh_from_db()
    assert (job.status, job.error_code) == ("waiting", "publication_failed")
    assert job.agent_output["messages"]
    assert narrations(job) == []  # the failed publication left nothing behind
    assert OutboxEvent.objects.filter(event_type="state.changed").count() == 0
    assert room.domain_revision() == before + 1
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    job.refresh_from_db()
    assert (job.status, job.attempt) == ("succeeded", 2)
    assert len(narrations(job)) == 1
    assert job.operations.count() == 1  # published from the journal: no second call
    assert room.domain_revision() == before + 1
    assert LedgerEntry.objects.filter(reservation_id=job.reservation_id).count() == 1


def test_dispatched_call_is_recalled_with_the_same_key(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    """A worker dies after the domain committed but before the journal recorded the result:
    recovery re-sends the same key and the domain replays (one mutation)."""
    from apps.turns.services.jobs import LeaseLost

    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    original = JournalCaller._after

    def die(self, step, name, outcome):
        raise LeaseLost("simulated worker death")

    monkeypatch.setattr(JournalCaller, "_after", die)
    assert turn_run(job_id=job.pk, heartbeat=False) == "lease_lost"
    monkeypatch.setattr(JournalCaller, "_after", original)
    op = Operation.objects.get(job=job)
    assert (op.state, op.result) == ("dispatched", None)
    assert room.domain_revision() == before + 1
    RoomTurnJob.objects.filter(pk=job.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=False):
        counts = turn_recovery_sweep()
    assert counts["requeued"] == 1
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    op.refresh_from_db()
    assert (op.state, op.attempt) == ("returned", 2)
    assert op.result["_meta"]["idempotent_replay"] is True
    assert room.domain_revision() == before + 1
    assert len(narrations(job)) == 1


def test_sweep_reenqueues_a_job_whose_message_was_lost(
    dnd_room, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The broker keeps no unacked copies: a message lost with its worker (or never sent) is
    re-sent by the sweep once the job has waited past the grace period, and the turn runs once."""
    room = dnd_room
    settings.SAGASMITH_TURN_REENQUEUE_SECONDS = 30
    with django_capture_on_commit_callbacks(execute=False):  # the enqueue never happens
        lost, _ = submit(room, room.player, key="lost-1")
        fresh, _ = submit(room, room.gm, key="fresh-1")
    RoomTurnJob.objects.filter(pk=lost.pk).update(
        available_at=timezone.now() - timedelta(seconds=31)
    )
    sent = []
    monkeypatch.setattr("apps.turns.services.recovery.enqueue_run", sent.append)
    counts = turn_recovery_sweep()
    assert (counts["reenqueued"], sent) == (1, [lost.pk])  # the fresh job is within its grace
    assert turn_run(job_id=lost.pk, heartbeat=False) == "succeeded"
    assert turn_run(job_id=lost.pk, heartbeat=False) == "skipped"  # a duplicate is harmless
    assert len(narrations(lost)) == 1


def test_lease_exhausted_fails_and_releases(dnd_room, django_capture_on_commit_callbacks):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    RoomTurnJob.objects.filter(pk=job.pk).update(
        status="running",
        attempt=3,
        worker="dead",
        lease_expires_at=timezone.now() - timedelta(seconds=1),
    )
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_recovery_sweep()["exhausted"] == 1
    assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    assert (job.status, job.error_code, job.charged) == ("failed", "worker_lease_exhausted", 0)
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"
    assert Operation.objects.filter(job=job).count() == 0
    outcome = Message.objects.get(event_type="turn.outcome")
    assert outcome.audience == "private" and outcome.data["status"] == "failed"


def test_cancel_queued_is_immediate(dnd_room, django_capture_on_commit_callbacks):
    from apps.core.errors import PermissionDenied

    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.gm)
    with pytest.raises(PermissionDenied):
        turn_cancel(job=job, membership=room.membership(room.player))
    cancelled = turn_cancel(job=job, membership=room.membership(room.gm))
    assert (cancelled.status, cancelled.cancel_requested) == ("cancelled", True)
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"
    assert turn_run(job_id=job.pk, heartbeat=False) == "skipped"


def test_cancel_while_running_stops_before_the_next_call(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)

    class CancellingAgent:
        name = "test"

        def run_turn(self, turn, call_tool):
            turn_cancel(job=RoomTurnJob.objects.get(pk=turn.job_id),
                        membership=room.membership(room.gm))  # fmt: skip
            call_tool("dice_roll", {"expression": "1d20"})
            return AgentOutput(messages=(AgentMessage("unreachable"),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: CancellingAgent())
    assert turn_run(job_id=job.pk, heartbeat=False) == "cancelled"
    job.refresh_from_db()
    assert (job.status, job.error_code) == ("cancelled", "cancelled")
    assert Operation.objects.filter(job=job).count() == 0
    assert room.domain_revision() == before
    assert Reservation.objects.get(pk=job.reservation_id).status == "released"


def test_receipt_that_does_not_advance_invalidates_nothing(dnd_room):
    room = dnd_room
    campaign = room.campaign
    stale = {
        "authority_revision": campaign.authority_revision,
        "changed_scopes": ["dice"],
        "entity_ids": [],
        "audience": "public",
    }
    refresh = projection_reads(campaign=campaign, receipts=[stale], requester=room.gm)
    assert refresh.advances is False and refresh.reads == []
    projection_apply(campaign=campaign, refresh=refresh)
    assert OutboxEvent.objects.filter(event_type="state.changed").count() == 0


def test_quota_liveness_follows_the_job(dnd_room, settings, django_capture_on_commit_callbacks):
    from apps.quota.services import quota_reap_expired

    settings.SAGASMITH_QUOTA_OWNER_LIVENESS = {
        "room_turn": "apps.turns.selectors.room_turn_job_is_live"
    }
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    Reservation.objects.filter(pk=job.reservation_id).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert room_turn_job_is_live(str(job.pk)) is True
    quota_reap_expired()
    assert Reservation.objects.get(pk=job.reservation_id).status == "active"


def test_hot_path_exact_query_counts(
    dnd_room, django_assert_num_queries, django_capture_on_commit_callbacks
):
    """House style: exact statement counts on the hot path, for a one-dice_roll turn after a
    first one (the quota account and the projection rows exist). PostgreSQL reserves and settles
    quota in one statement each; SQLite takes the ORM path."""
    from django.db import connection

    room = dnd_room
    membership = room.membership(room.player)
    postgres = connection.vendor == "postgresql"
    submit_queries, run_queries = (
        (SUBMIT_QUERIES_PG, RUN_QUERIES_PG)
        if postgres
        else (SUBMIT_QUERIES_SQLITE, RUN_QUERIES_SQLITE)
    )
    with django_capture_on_commit_callbacks(execute=False):
        first, _created = turn_action_submit(
            membership=membership, text="roll 1d20", idempotency_key="count-0"
        )
    assert turn_run(job_id=first.pk, heartbeat=False) == "succeeded"
    with django_capture_on_commit_callbacks(execute=False):
        with django_assert_num_queries(submit_queries):
            job, created = turn_action_submit(
                membership=membership, text="roll 1d20", idempotency_key="count-1"
            )
    assert created is True
    with django_assert_num_queries(run_queries):
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    job.refresh_from_db()
    assert job.status == RoomTurnJob.Status.SUCCEEDED and job.charged == 2


# Submit: savepoint, room counter, message and its outbox row (one statement on PostgreSQL),
# release, the reservation (PostgreSQL: one statement; SQLite: select, savepoint, insert, update,
# release), the job and its turn.job outbox row. A repeated key is found by the unique
# constraints, not by a lookup first.
SUBMIT_QUERIES_PG = 9
SUBMIT_QUERIES_SQLITE = 15
# Run: claim (job with requester, campaign lock with role and bound character, running count,
# claim UPDATE with the facade, outbox row), cancel check, dispatched journal row, cancel check,
# returned journal row, agent output; publish (campaign, job lock, receipt with the phase,
# snapshot upsert, state.changed, narration with its outbox row, settlement, job end state,
# outbox row). PostgreSQL writes the narration and its outbox row in one statement and settles in
# one; SQLite takes the ORM paths (two inserts; savepoint, reservation and account lock, grants,
# grant update, account, ledger entry, allocation, reservation, release).
# With heartbeat=False the two cancel checks are queries; a worker's heartbeat answers them.
RUN_QUERIES_PG = 24
RUN_QUERIES_SQLITE = 33
