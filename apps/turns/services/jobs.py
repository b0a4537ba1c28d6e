"""Job lifecycle writes: submit, claim, heartbeat, cancel, requeue, and progress announcements."""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import socket
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal

from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.accounts.models import User
from apps.campaigns.models import ActorBinding, Campaign, CampaignMembership
from apps.campaigns.services.authority import campaign_refresh
from apps.core.errors import (
    ApplicationError,
    Conflict,
    IdempotencyConflict,
    NotFound,
    PermissionDenied,
    QuotaExceeded,
    ValidationFailed,
)
from apps.core.idempotency import (
    idempotency_key_conflict,
    idempotency_key_held,
    idempotency_key_hold,
)
from apps.core.sql import db_value, model_from_row
from apps.core.text import visible
from apps.domains.registry import get_plugin
from apps.projections.services import (
    outbox_emit,
    outbox_emit_after,
    outbox_emit_with,
    outbox_event_new,
)
from apps.quota.models import Reservation
from apps.quota.services import quota_release, quota_reservation_heartbeat, quota_reserve
from apps.rooms.models import ACTION_KEY_HOLD, MAX_BODY_LENGTH, POST_SCOPE, Message
from apps.rooms.selectors import MANAGER_ROLES
from apps.rooms.services import room_event_record, room_message_post, room_writable
from apps.turns import conf
from apps.turns.agents import action_audience
from apps.turns.errors import StaleRevision, TurnCancelled, TurnError, recovery_for
from apps.turns.models import Operation, RoomTurnJob
from apps.turns.selectors import action_quote

logger = logging.getLogger(__name__)

JOB_EVENT = "turn.job"
OWNER_TYPE = "room_turn"
# What a turn is run for, the default first: a member's action, or a GM's narration that the
# game master applies (the facades' narration rows). Chat never starts a turn.
TURN_TASKS = ("action", "narration")


class LeaseLost(TurnError):
    """Another worker (or recovery) owns the job now; this worker must stop touching it."""

    code = "lease_lost"
    status = 409


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def job_view(job: RoomTurnJob) -> dict[str, Any]:
    """The one wire shape of a job (API responses and `turn.job` events)."""
    return {
        "id": str(job.id),
        "campaign_id": str(job.campaign_id),
        "requester_id": str(job.requester_id),
        "trigger_message_id": str(job.trigger_message_id),
        # What was asked, so a list of turns in progress tells them apart (a job is seen only by
        # its requester and the GMs, who see its action too).
        "text": job.text,
        "task": job.task,
        "status": job.status,
        "attempt": job.attempt,
        "max_attempts": job.max_attempts,
        "cancel_requested": job.cancel_requested,
        "base_revision": job.base_revision,
        "result_revision": job.result_revision,
        "tools": list(job.tools or []),
        "charged": job.charged,
        "error": (
            {
                "code": job.error_code,
                "message": job.error_message,
                "retryable": job.retryable,
                "recovery": job.recovery,
            }
            if job.error_code
            else None
        ),
        "created_at": job.created_at.isoformat() if job.created_at else None,
        # Every change moves it on: a page keeps the newest view of a job it is shown.
        "updated_at": job.updated_at.isoformat() if job.updated_at else None,
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
    }


def job_announce(job: RoomTurnJob) -> None:
    """A `turn.job` progress event to the requester (the GM sees every audience anyway)."""
    outbox_emit(**_job_event(job))


def _job_event(job: RoomTurnJob) -> dict[str, Any]:
    return {
        "event_type": JOB_EVENT,
        "campaign_id": job.campaign_id,
        "payload": job_view(job),
        "audience": {"users": [str(job.requester_id)]},
    }


def enqueue_run(job_id, *, countdown: float = 0) -> None:
    from apps.turns.tasks import run_turn

    run_turn.apply_async((str(job_id),), countdown=countdown or None)


def _action_client_id(idempotency_key: str) -> str:
    """The action message's client id: the key itself, or its digest when "turn:" and the key
    would exceed a client id's 160 characters."""
    if len(idempotency_key) <= 155:
        return f"turn:{idempotency_key}"
    return "turn#" + hashlib.sha256(idempotency_key.encode()).hexdigest()


def _request_hash(
    *, text: str, base_revision: int | None, audience: str, character_id: str = "", task: str
) -> str:
    fields = {"text": text, "base_revision": base_revision, "audience": audience}
    # Each only when it differs from the default: keys stored before it existed still replay.
    if character_id:
        fields["character_id"] = character_id
    if task != TURN_TASKS[0]:
        fields["task"] = task
    canonical = json.dumps(fields, sort_keys=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _same_or_conflict(job: RoomTurnJob, campaign_id, request_hash: str) -> RoomTurnJob:
    # A key is the requester's across campaigns: reused in another room it is a different
    # action, never a replay of this one.
    if job.request_hash != request_hash or str(job.campaign_id) != str(campaign_id):
        raise IdempotencyConflict(
            _("This Idempotency-Key was already used for a different action."),
            details={"job_id": str(job.id)},
        )
    return job


def turn_action_submit(
    *,
    membership: CampaignMembership,
    text: str,
    idempotency_key: str,
    base_revision: int | None = None,
    audience: str = Message.Audience.PUBLIC,
    character_id: str = "",
    traceparent: str = "",
    task: str = TURN_TASKS[0],
) -> tuple[RoomTurnJob, bool]:
    """Post the action message, create the queued job and reserve quota in one transaction;
    the worker task is enqueued on commit; its domain calls carry `traceparent`. `task` is
    "action", or "narration" for a GM's narration that the game master applies (its message is
    a narration, and the turn is given the narration tools). Returns (job, created); a repeated
    key returns the first job. Raises StaleRevision (nothing written), QuotaExceeded,
    IdempotencyConflict (the key made another action or a chat message), PermissionDenied,
    ValidationFailed and the rooms service's errors."""
    if task not in TURN_TASKS:
        problem = _("A turn's task is one of: %(tasks)s.") % {"tasks": ", ".join(TURN_TASKS)}
        raise ValidationFailed(
            problem, code="invalid_task", details={"fields": {"task": [problem]}}
        )
    text = (text or "").strip()
    if not visible(text) or len(text) > MAX_BODY_LENGTH:
        raise ValidationFailed(
            _("An action has 1 to %(max)d characters.") % {"max": MAX_BODY_LENGTH},
            code="invalid_body",
        )
    if not idempotency_key or len(idempotency_key) > 160:
        raise ValidationFailed(_("An idempotency key of 1 to 160 characters is required."))
    if audience not in (Message.Audience.PUBLIC, Message.Audience.GM):
        problem = _("An action goes to everyone or to the GM only.")
        raise ValidationFailed(
            problem,
            code="invalid_audience",
            recovery=_("Send private words as a chat message."),
            details={"fields": {"audience": [problem]}},
        )
    # The request as sent: what it became for the sender's role then must not make their
    # retry "different" once the role has changed.
    request_hash = _request_hash(
        text=text,
        base_revision=base_revision,
        audience=audience,
        character_id=character_id,
        task=task,
    )
    if audience == Message.Audience.PUBLIC and membership.role in MANAGER_ROLES:
        audience = action_audience(
            system_id=membership.campaign.system_id, text=text, audience=audience, task=task
        )
    user = membership.user
    # A repeated key is rare, so the unique constraints detect it rather than a lookup on every
    # submit; a replay answers with the first job whatever would refuse a new submit now.
    acting = _controlled_name(membership, character_id) if character_id else None
    if character_id and acting is None:
        if (replay := _replay(membership, idempotency_key, request_hash)) is not None:
            return replay, False
        raise ValidationFailed(
            _("You do not control that character."),
            code="invalid_character",
            recovery=_("Choose one of your characters, or ask a GM to bind it to you."),
            details={"fields": {"character_id": [_("Not one of your characters.")]}},
        )
    if base_revision is not None:
        current = Campaign.objects.values_list("authority_revision", flat=True).get(
            pk=membership.campaign_id
        )
        if int(base_revision) > current:
            # The room's projection lags the domain while a turn waits to be published: a
            # revision the client saw there (a panel reads the domain) is read back first.
            read = campaign_refresh(campaign=membership.campaign, requester=user)
            current = max(current, int(read.structured.get("authority_revision") or 0))
        if int(base_revision) != current:
            if (replay := _replay(membership, idempotency_key, request_hash)) is not None:
                return replay, False
            # Archived says more than stale: acting again at the current revision fails too.
            room_writable(membership.campaign)
            if int(base_revision) > current:
                raise ValidationFailed(
                    _("Revision %(base)s is newer than the campaign's (%(current)s).")
                    % {"base": base_revision, "current": current},
                    code="invalid_revision",
                    recovery=_(
                        "Send the authority_revision of the room as you loaded it, or leave "
                        "base_revision out."
                    ),
                    details={"fields": {"base_revision": [_("Newer than the campaign.")]}},
                )
            raise StaleRevision(
                _("The room changed since you loaded it (revision %(current)s, not %(base)s).")
                % {"current": current, "base": base_revision},
                details={"base_revision": base_revision, "current_revision": current},
            )
    job_id = uuid.uuid4()
    now = timezone.now()
    try:
        with transaction.atomic():
            # Registered first, so after commit the worker is handed the job before this
            # process publishes the room's events (on-commit callbacks run in order). Robust:
            # should the broker fail, the events still go out, and the recovery sweep enqueues
            # the job.
            transaction.on_commit(lambda: enqueue_run(job_id), robust=True)
            # No savepoint: a repeated key's IntegrityError rolls all of this back and is
            # answered below with the first job.
            message, _created = room_message_post(
                membership=membership,
                body=text,
                # A narration's message says so, and the rooms service lets only a GM send one.
                mode=Message.Mode.NARRATION if task == "narration" else Message.Mode.ACTION,
                audience=audience,
                client_message_id=_action_client_id(idempotency_key),
                savepoint=False,
                # Which of the player's characters acts, for the room to read.
                data={"character_id": character_id, "character_name": acting} if acting else None,
            )
            reservation = _reserve_turn(user, job_id)
            job = RoomTurnJob(
                id=job_id,
                campaign_id=membership.campaign_id,
                requester=user,
                trigger_message=message,
                idempotency_key=idempotency_key,
                request_hash=request_hash,
                task=task,
                text=text,
                trigger_audience=audience,
                character_id=character_id,
                base_revision=base_revision,
                max_attempts=conf.max_attempts(),
                available_at=now,
                reservation=reservation,
                traceparent=traceparent,
            )
            # The job, its hold on the key among the room's chat keys (a chat that took the
            # key first makes this raise) and its first `turn.job` event in one statement
            # (PostgreSQL).
            hold = idempotency_key_hold(
                user=user, scope=POST_SCOPE, key=idempotency_key, marker=ACTION_KEY_HOLD
            )
            outbox_emit_with(job, lambda: _job_event(job), along=[hold])
    except (IntegrityError, ApplicationError) as exc:
        # The action message's client id, the job's key or the key's hold exists, or the submit
        # was refused.
        if (replay := _replay(membership, idempotency_key, request_hash)) is not None:
            return replay, False
        if isinstance(exc, IntegrityError):
            if idempotency_key_held(user=user, scope=POST_SCOPE, key=idempotency_key):
                # No job has this key: a chat request of this user's took it.
                raise idempotency_key_conflict(idempotency_key) from exc
            # No job has this key, so the client id belongs to a chat message of this user's.
            raise Conflict(
                _("This Idempotency-Key was already used for a message in this room."),
                code="client_message_id_reused",
                recovery=_("Send the action with a new Idempotency-Key."),
            ) from exc
        raise
    return job, True


def _controlled_name(membership, character_id: str) -> str | None:
    """The name of the character if the member controls it, else None."""
    name = (
        ActorBinding.objects.filter(
            campaign_id=membership.campaign_id,
            user_id=membership.user_id,
            character_id=character_id,
            status=ActorBinding.Status.ACTIVE,
            can_control=True,
        )
        .values_list("character_name", flat=True)
        .first()
    )
    return None if name is None else name or character_id


def _replay(membership, idempotency_key: str, request_hash: str) -> RoomTurnJob | None:
    """The job an earlier submit with this key created, if any; raises IdempotencyConflict if
    that submit was for a different action."""
    existing = RoomTurnJob.objects.filter(
        requester=membership.user, idempotency_key=idempotency_key
    ).first()
    if existing is None:
        return None
    return _same_or_conflict(existing, membership.campaign_id, request_hash)


def _reserve_turn(user, job_id) -> Reservation:
    amount = conf.reserve_credits()
    try:
        return quota_reserve(
            user=user,
            amount=amount,
            key=f"{OWNER_TYPE}:{job_id}",
            owner_type=OWNER_TYPE,
            owner_id=str(job_id),
            ttl_seconds=conf.reservation_ttl(),
            # A player down to their last credits can still act (and end their turn): the
            # turn then is charged no more than they had.
            at_least=1,
        )
    except QuotaExceeded as exc:
        # Only an empty balance refuses an action (at_least=1): say so, and what to do next.
        held = (exc.details or {}).get("held")
        if held:
            explained = ngettext(
                "You have no credits free: %(held)s is held by your actions in progress.",
                "You have no credits free: %(held)s are held by your actions in progress.",
                held,
            ) % {"held": held}
            recovery = _(
                "Wait for your actions in progress to finish, or see your usage at %(url)s."
            )
        else:
            explained = _("You are out of credits: an action needs at least one.")
            recovery = _(
                "Ask staff for a quota grant or wait for your plan's next grant; your usage is at "
                "%(url)s."
            )
        raise QuotaExceeded(
            explained,
            details=exc.details,
            recovery=recovery % {"url": reverse("usage")},
        ) from None


def turn_claim(*, job_id, worker: str) -> tuple[RoomTurnJob | None, bool]:
    """Take a queued or waiting job: queued/waiting -> running, attempt + 1, a fresh lease.
    Returns (job, False), (None, True) when the room is at its concurrency limit, or
    (None, False) when there is nothing to claim (claimed elsewhere, finished, not yet due).

    A first run's facade selection (tools, starting revision, phase, role) is stored by the
    claim's own UPDATE when it cannot fail (an active member, a current base revision, not
    cancelled); the campaign, role and bound character it read ride on the job as
    `claim_context` so the run does not read them again. Otherwise the run selects (and
    raises) as before."""
    now = timezone.now()
    with transaction.atomic():
        # The job, then its campaign: the campaign lock serializes claims in one room, so two
        # workers cannot both see "3 running" and start.
        job, campaign = _claim_lock(job_id)
        if job is None or not _claimable(job, now):
            return None, False
        changes: dict[str, Any] = {}
        context = None
        role = campaign.requester_role
        if job.agent_output is None and role is not None:
            context = ClaimContext(campaign, role, campaign.requester_character)
            if (
                job.start_revision is None
                and not job.cancel_requested
                and job.base_revision in (None, campaign.authority_revision)
            ):
                try:
                    changes = _facade_selection(job, campaign, role)
                except Exception:
                    # Left to the run, which selects again and classifies what it raises.
                    changes = {}
        attempt = job.attempt + 1
        changes.update(
            status=RoomTurnJob.Status.RUNNING,
            attempt=attempt,
            lease_expires_at=now + timedelta(seconds=conf.lease_seconds()),
            heartbeat_at=now,
            worker=worker,
            started_at=job.started_at or now,
            max_attempts=max(job.max_attempts, attempt),
            updated_at=now,
        )
        # The row is locked, so the values computed here are the ones the UPDATE writes.
        if not job_update_announced(job, changes, room_slot_free_at=now):
            return _claim_busy(job, now)
        job.claim_context = context
    return job, False


def _claimable(job: RoomTurnJob, now) -> bool:
    return (
        job.status in (RoomTurnJob.Status.QUEUED, RoomTurnJob.Status.WAITING)
        and job.available_at <= now
        # A waiting job holds committed results: publication is retried without limit.
        and not (job.status == RoomTurnJob.Status.QUEUED and job.attempt >= job.max_attempts)
    )


def _room_full(job: RoomTurnJob, now) -> bool:
    # Counted after the campaign lock is held (a subquery of the locking statement would read
    # the pre-lock snapshot).
    running = RoomTurnJob.objects.filter(
        campaign_id=job.campaign_id, status=RoomTurnJob.Status.RUNNING, lease_expires_at__gt=now
    )
    return running.count() >= conf.room_concurrency()


def _claim_busy(job: RoomTurnJob, now) -> tuple[None, bool]:
    # Its message is re-sent shortly; the sweep's grace for lost messages counts from this
    # attempt, so a long wait does not add a message chain every sweep.
    RoomTurnJob.objects.filter(pk=job.pk, status=job.status, attempt=job.attempt).update(
        available_at=now
    )
    return None, True


_MEMBER_STATUSES = {
    "active": CampaignMembership.Status.ACTIVE,
    "binding_active": ActorBinding.Status.ACTIVE,
}


def _claim_lock(job_id) -> tuple[RoomTurnJob | None, Campaign | None]:
    """The job, its requester and its campaign (with the requester's role and bound character)
    in one statement that locks the job, then the campaign (SQLite has no row locks: it
    serializes writers, as select_for_update() assumes)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _claim_lock_sql(), {"job": db_value(RoomTurnJob, "pk", job_id), **_MEMBER_STATUSES}
        )
        row = cursor.fetchone()
    if row is None:
        return None, None
    job_n, user_n = len(RoomTurnJob._meta.concrete_fields), len(User._meta.concrete_fields)
    campaign_n = len(Campaign._meta.concrete_fields)
    job = model_from_row(RoomTurnJob, row[:job_n])
    user = model_from_row(User, row[job_n : job_n + user_n])
    campaign = model_from_row(Campaign, row[job_n + user_n : job_n + user_n + campaign_n])
    campaign.requester_role, campaign.requester_character = row[-2:]
    RoomTurnJob.requester.field.set_cached_value(job, user)
    return job, campaign


def job_update_announced(
    job: RoomTurnJob, changes: dict[str, Any], *, room_slot_free_at=None
) -> bool:
    """Write `changes` to a job whose row the caller has locked, with its `turn.job` event
    (one statement on PostgreSQL, two elsewhere), and set them on `job`. Returns whether the
    row was written.

    With `room_slot_free_at` (the claim, which holds the campaign lock), it is written only if
    the room has a free slot then: False means the room is full. Every claim holds that lock
    until it commits, so the count (made by the UPDATE itself on PostgreSQL) is current."""
    if (
        room_slot_free_at is not None
        and connection.vendor != "postgresql"
        and _room_full(job, room_slot_free_at)
    ):
        return False
    previous = {name: getattr(job, name) for name in changes}
    for name, value in changes.items():
        setattr(job, name, value)
    if connection.vendor == "postgresql":
        written = _update_announced_postgres(job, changes, room_slot_free_at)
    else:
        written = bool(RoomTurnJob.objects.filter(pk=job.pk).update(**changes))
        if written:
            job_announce(job)
    if not written:
        for name, value in previous.items():
            setattr(job, name, value)
    return written


def _update_announced_postgres(job: RoomTurnJob, changes: dict[str, Any], room_slot_free_at):
    qn = connection.ops.quote_name
    meta = RoomTurnJob._meta
    assignments, params = [], []
    for name, value in changes.items():
        field = meta.get_field(name)
        assignments.append(f"{qn(field.column)} = %s")
        params.append(field.get_db_prep_save(value, connection))
    params.append(job.pk)
    guard = ""
    if room_slot_free_at is not None:
        guard = _ROOM_SLOT_FREE_SQL.format(job=qn(meta.db_table))
        params += [job.campaign_id, RoomTurnJob.Status.RUNNING, room_slot_free_at,
                   conf.room_concurrency()]  # fmt: skip
    with_sql = _UPDATE_ANNOUNCED_SQL.format(
        job=qn(meta.db_table),
        assignments=", ".join(assignments),
        pk=qn(meta.pk.column),
        guard=guard,
    )
    return outbox_emit_after(with_sql, params, outbox_event_new(**_job_event(job))) is not None


# The claim's job and campaign locks, with the requester's role (an active membership) and the
# character of the first active binding they control. Written as SQL because the claim runs
# once per turn and compiling the ORM queries cost more than executing them.
_CLAIM_LOCK_SQL = """
SELECT {job_columns}, {user_columns}, {campaign_columns},
    (SELECT m.role FROM {membership} AS m
     WHERE m.campaign_id = c.id AND m.user_id = j.requester_id AND m.status = %(active)s
     LIMIT 1) AS requester_role,
    COALESCE(
        -- The character the requester chose, while they still control it; else their first.
        (SELECT b.character_id FROM {binding} AS b
         WHERE b.campaign_id = c.id AND b.user_id = j.requester_id
             AND b.status = %(binding_active)s AND b.can_control
             AND b.character_id = j.character_id
         LIMIT 1),
        (SELECT b.character_id FROM {binding} AS b
         WHERE b.campaign_id = c.id AND b.user_id = j.requester_id
             AND b.status = %(binding_active)s AND b.can_control
         ORDER BY b.created_at LIMIT 1)
    ) AS requester_character
FROM {job} AS j
JOIN {user} AS u ON u.id = j.requester_id
JOIN {campaign} AS c ON c.id = j.campaign_id
WHERE j.id = %(job)s
{lock}
"""


# A job's UPDATE, whose `turn.job` row is inserted only if it wrote (outbox_emit_after).
_UPDATE_ANNOUNCED_SQL = """
WITH written AS (
    UPDATE {job} SET {assignments} WHERE {pk} = %s {guard} RETURNING 1
)
"""
# The claim's condition: fewer live running jobs in the room than its limit.
_ROOM_SLOT_FREE_SQL = """
    AND (SELECT COUNT(*) FROM {job} AS r
         WHERE r.campaign_id = %s AND r.status = %s AND r.lease_expires_at > %s) < %s
"""


@functools.cache
def _claim_lock_sql() -> str:
    quote = connection.ops.quote_name

    def columns(alias, model):
        # Named, not j.*: a prepared statement's result columns must not change under it.
        return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)

    return _CLAIM_LOCK_SQL.format(
        job_columns=columns("j", RoomTurnJob),
        user_columns=columns("u", User),
        campaign_columns=columns("c", Campaign),
        job=quote(RoomTurnJob._meta.db_table),
        user=quote(User._meta.db_table),
        campaign=quote(Campaign._meta.db_table),
        membership=quote(CampaignMembership._meta.db_table),
        binding=quote(ActorBinding._meta.db_table),
        lock="FOR UPDATE OF j, c" if connection.features.has_select_for_update_of else "",
    )


@dataclass(frozen=True)
class ClaimContext:
    """What the claim read for the run: the locked campaign, the requester's role (an active
    membership) and their bound character."""

    campaign: Campaign
    role: str
    character: str | None


def _facade_selection(job: RoomTurnJob, campaign: Campaign, role: str) -> dict[str, Any]:
    """The fields a run's facade selection stores (the tools offered, the starting revision)."""
    names = list(get_plugin(campaign.system_id).facade_tools(
        phase=campaign.phase, role=role, task=job.task
    ))  # fmt: skip
    return {
        "tools": names,
        "start_revision": campaign.authority_revision,
        "phase": campaign.phase,
        "role": role,
    }


def turn_heartbeat(*, job: RoomTurnJob, worker: str) -> bool:
    """Renew the lease and the quota reservation; returns whether cancel was requested.
    Raises LeaseLost when the job is no longer this worker's."""
    now = timezone.now()
    renewed = held_by(job, worker).update(
        lease_expires_at=now + timedelta(seconds=conf.lease_seconds()),
        heartbeat_at=now,
        updated_at=now,
    )
    if not renewed:
        raise LeaseLost(_("The job's lease passed to another worker."))
    if job.reservation_id is not None:
        reservation = Reservation.objects.get(pk=job.reservation_id)
        if reservation.status == Reservation.Status.ACTIVE:
            quota_reservation_heartbeat(reservation=reservation, ttl_seconds=conf.reservation_ttl())
    return job_cancel_requested(job)


def job_cancel_requested(job: RoomTurnJob) -> bool:
    """Whether a cancel was requested for the job, as stored now."""
    return RoomTurnJob.objects.filter(pk=job.pk, cancel_requested=True).exists()


def retry_wait_limit() -> float:
    """The longest wait before a retry a failing service may ask of a turn. A queued turn's
    quota reservation is renewed only by a running attempt's heartbeat, so a longer wait would
    let it lapse under a turn still to run; and it is the longest wait between publication
    tries. A hostile or confused endpoint cannot park a turn for days."""
    return min(conf.retry_max_seconds(), conf.reservation_ttl() - conf.lease_seconds())


def requeue_delay(job: RoomTurnJob, retry_after: int | None = None) -> float:
    """Seconds before a requeued job is due: the backoff `retry_seconds x attempt`, or the wait
    the failing service asked for when longer (at most `retry_wait_limit()`)."""
    delay = conf.retry_seconds() * max(1, job.attempt)
    if retry_after is not None:
        delay = max(delay, min(retry_after, retry_wait_limit()))
    return delay


def turn_requeue(*, job: RoomTurnJob, worker: str | None, code: str, message: str,
                 recovery: str, retry_after: int | None = None) -> bool:  # fmt: skip
    """running -> queued after `requeue_delay`, then enqueue; False if the job was no longer
    this worker's (or running)."""
    now = timezone.now()
    delay = requeue_delay(job, retry_after)
    condition = {"pk": job.pk, "status": RoomTurnJob.Status.RUNNING, "attempt": job.attempt}
    if worker is not None:
        condition["worker"] = worker
    else:
        # The sweep: only while the lease is still expired, so a late heartbeat that renewed
        # it keeps the job with its live worker.
        condition["lease_expires_at__lt"] = now
    with transaction.atomic():
        moved = RoomTurnJob.objects.filter(**condition).update(
            status=RoomTurnJob.Status.QUEUED,
            available_at=now + timedelta(seconds=delay),
            lease_expires_at=None,
            worker="",
            error_code=code,
            error_message=message[:2000],
            retryable=True,
            recovery=recovery[:300],
            updated_at=now,
        )
        if moved:
            job.refresh_from_db()
            job_announce(job)
            transaction.on_commit(lambda: enqueue_run(job.pk, countdown=delay))
    return bool(moved)


OUTCOME_EVENT = "turn.outcome"


def job_ended_record(
    *, campaign: Campaign, job: RoomTurnJob, status: str, message: str, **data: Any
) -> None:
    """Say in the room, to everyone who saw the action, that it ended without an answer they
    can read (cancelled, dropped because its player left, answered privately), inside the
    transaction that ends the job, so the action does not stand there unanswered. `data` is
    added to the event's."""
    room_event_record(
        campaign=campaign,
        event_type=OUTCOME_EVENT,
        body=message,
        data={"job_id": str(job.pk), "status": status, **data},
        audience=job.trigger_audience,
    )


def job_cancelled_record(
    *,
    campaign: Campaign,
    job: RoomTurnJob,
    status: str,
    by: User,
    before: Literal["", "run", "publication"] = "",
    acted: bool = False,
    **data: Any,
) -> None:
    """Say in the room who cancelled the job, as `job_ended_record` does; the one who did
    reads it addressed to them (the room's page picks it). `before`: "run" for a queued turn,
    "publication" for a waiting one, "" once it ran; `acted`: a write of it committed on the
    domain, which stands all the same. `data` is added to the event's."""
    # Whole sentences each, as translators need them.
    if before == "run":
        said = _("%(who)s cancelled “%(action)s” before it ran.")
        said_to_them = _("You cancelled “%(action)s” before it ran.")
    elif before == "publication":
        said = _("%(who)s cancelled “%(action)s” before it was published.")
        said_to_them = _("You cancelled “%(action)s” before it was published.")
    elif acted:
        said = _("%(who)s cancelled “%(action)s” after the rules had acted: what they did stands.")
        said_to_them = _(
            "You cancelled “%(action)s” after the rules had acted: what they did stands."
        )
    else:
        said = _("%(who)s cancelled “%(action)s”.")
        said_to_them = _("You cancelled “%(action)s”.")
    action = action_quote(job.text)
    job_ended_record(
        campaign=campaign, job=job, status=status,
        message=said % {"who": by.label, "action": action},
        cancelled_by=str(by.pk),
        cancelled_by_body=said_to_them % {"action": action},
        **data,
    )  # fmt: skip


def job_reservation_release(job: RoomTurnJob, reason: str) -> bool:
    """Release the job's quota reservation if it is still active; returns whether it did."""
    if job.reservation_id is None:
        return False
    reservation = Reservation.objects.filter(pk=job.reservation_id).first()
    if reservation is None or reservation.status != Reservation.Status.ACTIVE:
        return False
    quota_release(reservation=reservation, reason=reason)
    return True


def held_by(job: RoomTurnJob, worker: str):
    """The job's row while this worker's attempt holds it (a conditional update's filter)."""
    return RoomTurnJob.objects.filter(
        pk=job.pk, status=RoomTurnJob.Status.RUNNING, worker=worker, attempt=job.attempt
    )


def turn_cancel(*, job: RoomTurnJob, membership: CampaignMembership) -> RoomTurnJob:
    """Cancel as the requester or a GM: at once when queued or waiting with no write sent to the
    domain (the reservation is released; a waiting turn's narration is not published),
    cooperatively otherwise (a running worker stops
    before its next tool call; what the domain did is published and charged). A queued or
    waiting job with a write left unanswered (it may have committed) is handed to a worker at
    once, which asks the domain whether it did without letting it run, and publishes and
    charges it if so. Raises NotFound (a membership of another campaign, or one that ended),
    PermissionDenied;
    cancelling a finished job returns it unchanged."""
    if (
        str(job.campaign_id) != str(membership.campaign_id)
        or membership.status != CampaignMembership.Status.ACTIVE
    ):
        # Its role is another room's (and the cancel note would go there), or was given up:
        # hidden, as the API hides a turn its caller may not see.
        raise NotFound(_("No such turn."))
    if job.requester_id != membership.user_id and membership.role not in MANAGER_ROLES:
        raise PermissionDenied(
            _("Only the player who acted or a GM can cancel this turn."), code="cancel_denied"
        )
    now = timezone.now()
    with transaction.atomic():
        locked = RoomTurnJob.objects.select_for_update().get(pk=job.pk)
        if locked.status in RoomTurnJob.FINAL_STATUSES:
            return locked
        # A write answered, or sent and unanswered: the domain may have acted.
        sent = locked.operations.filter(write=True).exclude(state=Operation.State.REFUSED)
        waiting = locked.status == RoomTurnJob.Status.WAITING
        if not sent.exists() and (locked.status == RoomTurnJob.Status.QUEUED or waiting):
            # A waiting turn's stored narration of what it read is dropped unpublished.
            locked.status = RoomTurnJob.Status.CANCELLED
            locked.cancel_requested = True
            locked.cancelled_by_id = membership.user_id
            locked.finished_at = now
            locked.error_code = TurnCancelled.code
            locked.error_message = str(
                _("Cancelled before it was published.")
                if waiting
                else _("Cancelled before it ran.")
            )
            # Not a requeue's "retried automatically" left from an earlier attempt.
            locked.retryable = TurnCancelled.retryable
            locked.recovery = recovery_for(TurnCancelled, narration=locked.task == "narration")
            if locked.reservation_id:
                locked.charged = 0  # its reservation is released below, as publication says
            locked.save(
                update_fields=[
                    "status",
                    "cancel_requested",
                    "cancelled_by",
                    "finished_at",
                    "error_code",
                    "error_message",
                    "retryable",
                    "recovery",
                    "charged",
                    "updated_at",
                ]  # fmt: skip
            )
            # The room before the account, as publication and submission take them.
            job_cancelled_record(
                campaign=membership.campaign, job=locked, status=RoomTurnJob.Status.CANCELLED,
                by=membership.user, before="publication" if waiting else "run",
            )  # fmt: skip
            job_reservation_release(locked, "cancelled")
        else:
            # Running, or with writes sent: the worker (or recovery) finishes publishing what
            # the domain already did, and stops before any further call.
            fields = ["cancel_requested", "updated_at"]
            if not locked.cancel_requested:
                # The first to ask is the one the note names.
                locked.cancelled_by_id = membership.user_id
                fields.append("cancelled_by")
            locked.cancel_requested = True
            if locked.status != RoomTurnJob.Status.RUNNING:
                # Not after its backoff: the player is waiting to see the turn end.
                locked.available_at = now
                fields.append("available_at")
                transaction.on_commit(lambda: enqueue_run(locked.pk), robust=True)
            locked.save(update_fields=fields)
        job_announce(locked)
    return locked
