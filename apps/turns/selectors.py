"""Room turn reads."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils.text import Truncator
from django.utils.translation import gettext as _

from apps.campaigns.models import CampaignMembership
from apps.turns.models import RoomTurnJob


def room_turn_job_is_live(owner_id: str) -> bool:
    """Quota liveness: a reservation owned by a job is kept while the job may still finish.
    A running job with an expired lease counts too: recovery requeues or ends it, and its
    publication must still find the reservation to settle or release."""
    return RoomTurnJob.objects.filter(pk=owner_id, status__in=RoomTurnJob.ACTIVE_STATUSES).exists()


def turn_key_used(*, user, idempotency_key: str) -> bool:
    """Whether this user's Idempotency-Key already made an action (a job)."""
    return RoomTurnJob.objects.filter(requester=user, idempotency_key=idempotency_key).exists()


def action_quote(text: str) -> str:
    """An action's words, short enough to name it in a sentence (usage rows, room notes)."""
    return Truncator(text).chars(60)


def room_turn_uses(*, reservation_ids, user_id) -> dict:
    """Quota's usage page: {reservation id: (text, url)} for room-turn reservations, e.g.
    "Room turn in <campaign>: “<action>”" linking to the room, opened at the action
    ("#entry-<sequence>", which room.js honours), while the user is still a member. One query,
    however many reservations."""
    member = CampaignMembership.objects.filter(
        campaign_id=OuterRef("campaign_id"),
        user_id=user_id,
        status=CampaignMembership.Status.ACTIVE,
    )
    rows = (
        RoomTurnJob.objects.filter(reservation_id__in=list(reservation_ids))
        .annotate(member=Exists(member))
        .values_list(
            "reservation_id", "campaign_id", "campaign__name", "member", "text",
            "trigger_message__sequence",
        )
    )  # fmt: skip
    uses = {}
    for reservation_id, campaign_id, name, is_member, text, sequence in rows:
        room = reverse("room", kwargs={"campaign_id": campaign_id})
        url = f"{room}#entry-{sequence}" if is_member else ""
        # The action itself (the requester's own words) tells one turn's charge from another.
        uses[reservation_id] = (
            _("Room turn in %(campaign)s: “%(action)s”")
            % {"campaign": name, "action": action_quote(text)},
            url,
        )
    for reservation_id in reservation_ids:
        uses.setdefault(reservation_id, (_("Room turn"), ""))  # its job is gone
    return uses


def turn_job_for_viewer(*, campaign_id, job_id, membership) -> RoomTurnJob | None:
    """The job if the viewer may see it: its requester or a GM."""
    job = RoomTurnJob.objects.filter(pk=job_id, campaign_id=campaign_id).first()
    if job is None:
        return None
    if job.requester_id != membership.user_id and membership.role not in ("owner", "gm"):
        return None
    return job


ACTIVE_JOBS_SHOWN = 50


def active_jobs_for_viewer(*, campaign_id, membership) -> tuple[list[RoomTurnJob], bool]:
    """The oldest active jobs the viewer may see (at most ACTIVE_JOBS_SHOWN), and whether there
    are more."""
    qs = RoomTurnJob.objects.filter(
        campaign_id=campaign_id, status__in=RoomTurnJob.ACTIVE_STATUSES
    ).order_by("created_at")
    if membership.role not in ("owner", "gm"):
        qs = qs.filter(requester_id=membership.user_id)
    jobs = list(qs[: ACTIVE_JOBS_SHOWN + 1])
    return jobs[:ACTIVE_JOBS_SHOWN], len(jobs) > ACTIVE_JOBS_SHOWN
