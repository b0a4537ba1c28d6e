"""The periodic recovery sweep: expired leases, and jobs whose broker message was lost."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.turns.errors import ErrorClassification, TurnCancelled, classify_error
from apps.turns.models import RoomTurnJob
from apps.turns.services.jobs import enqueue_run, job_announce, turn_requeue
from apps.turns.services.run import LEASE_EXHAUSTED, _ending

logger = logging.getLogger(__name__)


def _to_waiting(job: RoomTurnJob, *, ending: dict | None) -> bool:
    """running (expired) -> waiting, due now; publication then applies what is stored."""
    now = timezone.now()
    fields = {
        "status": RoomTurnJob.Status.WAITING,
        "available_at": now,
        "lease_expires_at": None,
        "worker": "",
        "updated_at": now,
    }
    # Only while the lease is still expired: a late heartbeat keeps the job with its worker.
    condition = Q(
        pk=job.pk, status=RoomTurnJob.Status.RUNNING, attempt=job.attempt, lease_expires_at__lt=now
    )
    if ending is not None:
        fields["agent_output"] = ending
        condition &= Q(agent_output__isnull=True)
    with transaction.atomic():
        moved = RoomTurnJob.objects.filter(condition).update(**fields)
        if moved:
            job.refresh_from_db()
            job_announce(job)
            transaction.on_commit(lambda: enqueue_run(job.pk))
    return bool(moved)


def turn_recovery_sweep(*, now=None) -> dict[str, int]:
    """Requeue (with backoff) running jobs whose lease expired, or end them with
    `worker_lease_exhausted` once attempts are spent; jobs holding an agent output go to
    `waiting` for publication. Re-enqueue queued/waiting jobs whose message was lost.
    Never executes anything itself: a worker claims and journals as usual."""
    now = now or timezone.now()
    counts = {"requeued": 0, "waiting": 0, "exhausted": 0, "cancelled": 0, "reenqueued": 0}
    expired = RoomTurnJob.objects.filter(
        status=RoomTurnJob.Status.RUNNING, lease_expires_at__lt=now
    ).order_by("lease_expires_at")[:500]
    for job in expired:
        if job.agent_output is not None:
            counts["waiting"] += _to_waiting(job, ending=None)
        elif job.cancel_requested:
            # The worker's own classification: the same code, retryability and recovery.
            cancelled = TurnCancelled(_("The turn was cancelled."))
            ending = _ending(
                "cancelled", classify_error(cancelled, narration=job.task == "narration")
            )
            counts["cancelled"] += _to_waiting(job, ending=ending)
        elif job.attempt >= job.max_attempts:
            ending = _ending("failed", ErrorClassification(
                LEASE_EXHAUSTED, False,
                str(_("Act again; the workers kept stopping on this turn.")),
                str(_("No worker finished this turn after %(n)s attempts.") % {"n": job.attempt}),
            ))  # fmt: skip
            counts["exhausted"] += _to_waiting(job, ending=ending)
        else:
            counts["requeued"] += turn_requeue(
                job=job, worker=None, code="worker_lease_expired",
                message=str(_("The worker stopped renewing its lease.")),
                recovery=str(_("The turn will be retried automatically.")),
            )  # fmt: skip
    grace = timedelta(seconds=float(getattr(settings, "SAGASMITH_TURN_REENQUEUE_SECONDS", 30)))
    lost = RoomTurnJob.objects.filter(
        status__in=[RoomTurnJob.Status.QUEUED, RoomTurnJob.Status.WAITING],
        available_at__lt=now - grace,
    ).values_list("pk", flat=True)[:500]
    for job_id in lost:
        # A duplicate message is harmless: claiming is a conditional update.
        enqueue_run(job_id)
        counts["reenqueued"] += 1
    return counts
