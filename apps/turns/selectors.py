"""Room turn reads."""

from __future__ import annotations

from apps.turns.models import RoomTurnJob


def room_turn_job_is_live(owner_id: str) -> bool:
    """Quota liveness: a reservation owned by a job is kept while the job may still finish.
    A running job with an expired lease counts too: recovery requeues or ends it, and its
    publication must still find the reservation to settle or release."""
    return RoomTurnJob.objects.filter(pk=owner_id, status__in=RoomTurnJob.ACTIVE_STATUSES).exists()


def turn_job_for_viewer(*, campaign_id, job_id, membership) -> RoomTurnJob | None:
    """The job if the viewer may see it: its requester or a GM."""
    job = RoomTurnJob.objects.filter(pk=job_id, campaign_id=campaign_id).first()
    if job is None:
        return None
    if job.requester_id != membership.user_id and membership.role not in ("owner", "gm"):
        return None
    return job


def active_jobs_for_viewer(*, campaign_id, membership) -> list[RoomTurnJob]:
    qs = RoomTurnJob.objects.filter(
        campaign_id=campaign_id, status__in=RoomTurnJob.ACTIVE_STATUSES
    ).order_by("created_at")
    if membership.role not in ("owner", "gm"):
        qs = qs.filter(requester_id=membership.user_id)
    return list(qs[:50])
