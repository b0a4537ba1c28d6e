"""Outbox writes and dispatch. Rows are written inside the caller's transaction; publication
happens after commit (at-least-once: clients drop duplicates by sequence, and replay from the
database covers any wake-up that never arrives)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any
from uuid import UUID

from django.db import connection, transaction
from django.db.models import F, Model, Q
from django.utils import timezone

from apps.core.errors import ValidationFailed
from apps.core.sql import db_value, insert_select_sql, insert_sql, mark_saved

from .dispatch import ACCESS_REVOKED, ACCESS_VERSION, ROOM_ENTRY
from .models import ROOM_EVENTS, OutboxEvent

logger = logging.getLogger(__name__)

AUDIENCE_PUBLIC = "public"
AUDIENCE_GM = "gm"
BATCH_SIZE = 200
RETENTION = timedelta(days=1)
# Failed publications before a row is given up: about a minute of the hosted sweep (every 5 s),
# longer than a broker blip. What a given-up row announced is still in the database: a socket
# reads a missed entry at the next one's gap, or on reconnecting.
OUTBOX_MAX_ATTEMPTS = 10
# Given-up rows stay where operators look for them (the admin's "given up" list) past a weekend.
GIVEN_UP_RETENTION = timedelta(days=7)


def normalize_audience(audience: dict | str) -> dict | str:
    """Return the stored form of an audience; raises ValidationFailed for anything else."""
    if audience in (AUDIENCE_PUBLIC, AUDIENCE_GM):
        return audience
    if isinstance(audience, dict) and set(audience) == {"users"}:
        try:
            users = sorted({str(UUID(str(u))) for u in audience["users"]})
        except (TypeError, ValueError):
            users = None
        if users:
            return {"users": users}
    raise ValidationFailed(
        "An outbox audience is 'public', 'gm' or {'users': [<user id>, ...]}.",
        code="invalid_audience",
    )


def _payload_checked(payload: Any) -> dict[str, Any]:
    # Publication reads the payload as an object (a room event also gets its access version set
    # in it): anything else would fail every attempt and be given up, its news never sent.
    if isinstance(payload, dict):
        return payload
    raise ValidationFailed(
        f"An outbox payload is a JSON object, not {_JSON_KINDS.get(type(payload), 'a value')}.",
        code="invalid_payload",
    )


_JSON_KINDS = {
    list: "an array", tuple: "an array", str: "a string", int: "a number", float: "a number",
    bool: "a boolean", type(None): "null",
}  # fmt: skip


def outbox_event_new(
    *, event_type: str, campaign_id, payload: dict[str, Any], audience: dict | str = "public"
) -> OutboxEvent:
    """An unsaved outbox row, for a writer that inserts it with its change in one statement
    (then `outbox_publish_on_commit`). Raises ValidationFailed for a payload that is not an
    object or an unknown audience shape."""
    return OutboxEvent(
        event_type=event_type,
        campaign_id=UUID(str(campaign_id)),
        payload=_payload_checked(payload),
        audience=normalize_audience(audience),
    )


def outbox_publish_on_commit(event: OutboxEvent) -> None:
    """Publish a written row after the current transaction commits."""
    from .dispatch import publisher, publishes_on_commit

    if publishes_on_commit():
        # Hand the row itself to the publisher: no re-read, and the request does not wait.
        transaction.on_commit(lambda: publisher.submit([event]))


def outbox_emit(
    *, event_type: str, campaign_id, payload: dict[str, Any], audience: dict | str = "public"
) -> OutboxEvent:
    """Write one outbox row in the current transaction; it is published after commit. A room
    event other than an entry has the access version read into its payload by its INSERT.

    Raises ValidationFailed for a payload that is not an object or an unknown audience shape.
    """
    event = outbox_event_new(
        event_type=event_type, campaign_id=campaign_id, payload=payload, audience=audience
    )
    if _stamped(event):
        _insert_selected(event)  # one statement, as the save would be
    else:
        event.save(force_insert=True)
    outbox_publish_on_commit(event)
    return event


def outbox_emit_with(
    row, announce: Callable[[], dict[str, Any]], *, along: Sequence[Model] = ()
) -> OutboxEvent:
    """Insert `row` (a new model instance), the new instances `along` it and the outbox row
    announcing it, in one statement on PostgreSQL (one each elsewhere), inside the caller's
    transaction; published after commit. `announce()` returns `outbox_emit`'s arguments; it
    runs once the row's own values (its auto_now timestamps) are set, so the announcement shows
    what was stored. Raises IntegrityError when one of them breaks a constraint."""
    if connection.vendor != "postgresql":
        for other in along:
            other.save(force_insert=True)
        row.save(force_insert=True)
        return outbox_emit(**announce())
    ctes, params = [], []
    for n, other in enumerate(along):
        other_sql, other_params = insert_sql(type(other), [other])
        ctes.append(f"along_{n} AS ({other_sql}), ")
        params += other_params
    row_sql, row_params = insert_sql(type(row), [row])
    event = outbox_event_new(**announce())
    outbox_emit_after(
        f"WITH {''.join(ctes)}written AS ({row_sql} RETURNING 1)", params + row_params, event
    )
    mark_saved(row, *along)
    return event


def outbox_emit_after(
    with_sql: str,
    params: list[Any],
    event: OutboxEvent,
    *,
    exprs: dict[str, str] | None = None,
    returning: str = "",
) -> tuple | None:
    """PostgreSQL: a change and the outbox row announcing it in one statement. `with_sql` is a
    WITH clause whose CTE `written` makes the change and returns a row when it did; `event` is
    inserted once per such row (`exprs` as `insert_select_sql` takes them), and published after
    commit. Returns the values of `returning` (expressions over the statement's CTEs), or None
    when the change wrote nothing (and neither did the event). A room event other than an entry
    (which takes it with its sequence) has its payload read the access version in the same
    statement: leave "payload" out of `exprs` for one."""
    row = _insert_selected(
        event, with_sql=with_sql, params=params, source="written", exprs=exprs,
        returning=returning,
    )  # fmt: skip
    if row is None:
        return None
    outbox_publish_on_commit(event)
    return row


def _insert_selected(
    event: OutboxEvent,
    *,
    with_sql: str = "",
    params: list[Any] | None = None,
    source: str = "",
    exprs: dict[str, str] | None = None,
    returning: str = "",
) -> tuple | None:
    """INSERT ... SELECT of `event` after `with_sql`, once per row of `source` (a room event
    but an entry also selects its access version; it may do without a source). Sets the id and
    the stamped payload on `event`; returns the values of `returning`, or None when nothing was
    inserted."""
    sources, source_params = [source] if source else [], []
    stamped = _stamped(event)
    if stamped:
        sources.append(_ACCESS_SOURCE.format(**_access_tables()))
        source_params.append(_campaign_key(event))
        exprs = {**(exprs or {}), "payload": _stamp_sql()}
    event_sql, event_params = insert_select_sql(OutboxEvent, event, ", ".join(sources), exprs)
    pk = connection.ops.quote_name(OutboxEvent._meta.pk.column)
    version = f", {_stamped_version_sql()}" if stamped else ""
    extra = f", {returning}" if returning else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"{with_sql} {event_sql} RETURNING {pk}{version}{extra}",
            [*(params or []), *event_params, *source_params],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    event.id, row = row[0], row[1:]
    if stamped:
        event.payload = {**event.payload, ACCESS_VERSION: int(row[0])}
        row = row[1:]
    mark_saved(event)
    return tuple(row)


# Room events other than entries carry the campaign's access version in their payload, read by
# the statement that writes them (publication moves it beside the event): a socket that has not
# read its access since a removal or a change of role reads it before it is sent the event,
# whichever publication arrives first. An entry takes the version with its sequence; the access
# news itself goes to the members' own groups.
def _stamped(event: OutboxEvent) -> bool:
    return event.event_type not in (ROOM_ENTRY, ACCESS_REVOKED)


# A one-row source for the event's INSERT ... SELECT; 0 when the campaign is gone (an
# announcement may outlive it).
_ACCESS_SOURCE = (
    "(SELECT COALESCE((SELECT c.{version} FROM {campaign} AS c WHERE c.{pk} = %s), 0) "
    "AS version) AS access"
)


def _access_tables() -> dict[str, str]:
    from apps.campaigns.models import Campaign

    qn, meta = connection.ops.quote_name, Campaign._meta
    return {
        "campaign": qn(meta.db_table),
        "pk": qn(meta.pk.column),
        "version": qn(meta.get_field("access_version").column),
    }


def _campaign_key(event: OutboxEvent) -> Any:
    from apps.campaigns.models import Campaign

    return db_value(Campaign, "pk", event.campaign_id)


def _stamp_sql() -> str:
    """The payload (the field's `%s`) with the version set in it."""
    if connection.vendor == "postgresql":
        return f"jsonb_set(%s, '{{{ACCESS_VERSION}}}', to_jsonb(access.version))"
    return f"json_set(%s, '$.{ACCESS_VERSION}', access.version)"


def _stamped_version_sql() -> str:
    """The version as the inserted row's payload holds it (for the RETURNING clause)."""
    column = connection.ops.quote_name(OutboxEvent._meta.get_field("payload").column)
    if connection.vendor == "postgresql":
        return f"({column} ->> '{ACCESS_VERSION}')::bigint"
    return f"json_extract({column}, '$.{ACCESS_VERSION}')"


def outbox_pending(
    *, limit: int = BATCH_SIZE, older_than: timedelta | None = None, after: int = 0
) -> list[OutboxEvent]:
    from .dispatch import publisher

    qs = OutboxEvent.objects.filter(dispatched_at__isnull=True, id__gt=after)
    if in_flight := publisher.in_flight():
        qs = qs.exclude(id__in=in_flight)  # this process is publishing them already
    if older_than is not None:
        qs = qs.filter(created_at__lt=timezone.now() - older_than)
    return list(qs.order_by("id")[:limit])


def outbox_mark_dispatched(*, ids: list[int]) -> int:
    # Conditional: a concurrent dispatcher that already marked a row does not count it twice.
    return OutboxEvent.objects.filter(id__in=ids, dispatched_at__isnull=True).update(
        dispatched_at=timezone.now()
    )


def outbox_dispatch_after(
    *, after: int, older_than: timedelta | None = None, deadline: float | None = None
) -> tuple[int, int | None]:
    """Publish the oldest pending batch past id `after`: one step of a pass over the pending
    rows, for the sweep and the embedded poller alike. Returns how many were published and the
    id to go on after, or None when the pass is over.

    A pass tries each row once: a row that fails waits for the next pass, so its retries are
    spaced by the sweep or the poll rather than spent at once, and a row's attempts count the
    passes it failed in whichever process ran them. A channel layer that cannot be reached or
    refuses every command (`layer_unavailable`), or a publisher that raises, ends the pass: the
    row in hand is charged an attempt, the rows after it wait for the next pass uncharged. So
    does `deadline` (a `time.monotonic()` reading), once one row at least was tried: the rows
    not reached stay pending, uncharged."""
    events = outbox_pending(older_than=older_than, after=after)
    published, layer_down = _publish(events, deadline)
    if not events or layer_down:
        return published, None
    if deadline is not None and time.monotonic() >= deadline:
        return published, None
    return published, events[-1].id


def outbox_dispatch_pending(
    *, older_than: timedelta | None = None, deadline: float | None = None
) -> int:
    """One pass over every pending row (see `outbox_dispatch_after`); returns how many were
    published."""
    sent, after = 0, 0
    while after is not None:
        published, after = outbox_dispatch_after(
            after=after, older_than=older_than, deadline=deadline
        )
        sent += published
    return sent


def _publish(events: list[OutboxEvent], deadline: float | None = None) -> tuple[int, bool]:
    """Publish `events`; returns how many were marked dispatched and whether the round ended on
    a layer that could take no send or a publisher that raised (then the rows after the one
    charged were not tried)."""
    from . import dispatch
    from .dispatch import layer_unavailable, publisher

    if not events:
        return 0, False
    # The rows and the notices for those given up start no send past the pass's deadline
    # (after one at least), each bounded by the publication timeout and none waited for past
    # one timeout beyond the deadline.
    until = None if deadline is None else deadline + dispatch.PUBLISH_TIMEOUT
    try:
        published, failed = publisher.publish_now(events, deadline, until)
    except Exception as error:
        # The publisher failed, not a row: as for a layer that cannot be reached, the pass ends
        # there and the row in hand is charged, so a failure that lasts gives rows up where
        # operators look instead of meeting every batch, uncounted, pass after pass.
        _count_failures(
            {events[0].id: error}, publisher_failed=True, deadline=deadline, until=until,
            round_failure=error,
        )  # fmt: skip
        return 0, True
    round_failure = next((e for e in failed.values() if layer_unavailable(e)), None)
    if failed:
        _count_failures(failed, deadline=deadline, until=until, round_failure=round_failure)
    return (outbox_mark_dispatched(ids=published) if published else 0), bool(round_failure)


def _count_failures(
    failed: dict[int, Exception],
    *,
    publisher_failed: bool = False,
    deadline: float | None = None,
    until: float | None = None,
    round_failure: Exception | None = None,
) -> None:
    """Charge each failed row an attempt; give up the rows that have spent them all, their
    notices bounded by `deadline` and `until` (see `publish_each`) and not sent after a
    `round_failure` (a layer that could take no send, or a publisher that raised). With
    `publisher_failed` the one row is charged for a publisher that raised, logged with its
    traceback."""
    pending = OutboxEvent.objects.filter(id__in=list(failed), dispatched_at__isnull=True)
    pending.update(attempts=F("attempts") + 1)
    given_up = []
    # A row published meanwhile by another dispatcher is no longer here.
    for event_id, attempts in pending.values_list("id", "attempts"):
        error = failed[event_id]
        if attempts < OUTBOX_MAX_ATTEMPTS and publisher_failed:
            logger.error(
                "Outbox publication failed at row #%s (attempt %d of %d); the pass ends, the "
                "rows after it wait for the next one: %s",
                event_id, attempts, OUTBOX_MAX_ATTEMPTS, _described(error), exc_info=error,
            )  # fmt: skip
        elif attempts < OUTBOX_MAX_ATTEMPTS:
            logger.warning(
                "Outbox row #%s not published (attempt %d of %d); it stays pending: %s",
                event_id, attempts, OUTBOX_MAX_ATTEMPTS, _described(error),
            )  # fmt: skip
        elif OutboxEvent.objects.filter(id=event_id, dispatched_at__isnull=True).update(
            dispatched_at=timezone.now(), error=_described(error)
        ):
            logger.error(
                "Outbox row #%s given up after %d attempts: %s",
                event_id, attempts, _described(error), exc_info=error,
            )  # fmt: skip
            given_up.append(event_id)
    if given_up:
        _notify_given_up(given_up, deadline=deadline, until=until, round_failure=round_failure)


def _notify_given_up(
    ids: list[int],
    *,
    deadline: float | None = None,
    until: float | None = None,
    round_failure: Exception | None = None,
) -> None:
    """Send the audience of each given-up room event (a state or job change) a content-free
    `state.changed` under its id: pages read their panels again on it, rather than show what
    the lost event announced until some later one. Entries need none (a socket reads a missed
    entry at the next one's gap), nor does access news (each heartbeat reads the access).
    Bounded as the rows are (`deadline`, `until`): a notice not started in time is not sent.
    After a `round_failure` none is started: it would meet the same layer, and the pass would
    wait on it a second time."""
    from .dispatch import REFRESH_EVENT, publisher

    notices = [
        OutboxEvent(
            id=row.id,
            event_type=REFRESH_EVENT,
            campaign_id=row.campaign_id,
            payload={
                ACCESS_VERSION: row.payload.get(ACCESS_VERSION, 0),
                "given_up": row.event_type,
            },
            audience=row.audience,
        )
        for row in OutboxEvent.objects.filter(ROOM_EVENTS, id__in=ids).order_by("id")
    ]
    if not notices:
        return
    kinds = {notice.id: notice.payload["given_up"] for notice in notices}
    if round_failure is not None:
        published, failed = [], {}
        not_started = f"publication had just failed: {_described(round_failure)}"
    else:
        not_started = "no time was left for it"
        try:
            published, failed = publisher.publish_now(notices, deadline, until)
        except Exception as error:
            published, failed = [], dict.fromkeys(kinds, error)
    causes = {event_id: _described(error) for event_id, error in failed.items()}
    for event_id in kinds:
        if event_id not in published:
            causes.setdefault(event_id, not_started)
    for event_id in published:
        logger.info(
            "Outbox row #%s (%s) replaced by a %s notice to its audience",
            event_id, kinds[event_id], REFRESH_EVENT,
        )  # fmt: skip
    for event_id, cause in causes.items():
        # Best effort: the page reads its panels again at the next event or reconnection.
        logger.warning(
            "Outbox row #%s (%s) given up and its %s notice not sent either: %s",
            event_id, kinds[event_id], REFRESH_EVENT, cause,
        )  # fmt: skip


def _described(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"


def outbox_send_again(*, ids: Sequence[int], actor) -> int:
    """Put the given-up rows among `ids` back to pending, their attempts from zero, for the sweep
    or the poller to publish (after the layer or the row was fixed); returns how many. Rows not
    given up are left alone. Writes one audit row naming them and the errors they had."""
    from apps.core.services import audit_record

    with transaction.atomic():
        errors = dict(
            OutboxEvent.objects.select_for_update()
            .filter(id__in=list(ids), dispatched_at__isnull=False)
            .exclude(error="")
            .order_by("id")
            .values_list("id", "error")
        )
        if not errors:
            return 0
        OutboxEvent.objects.filter(id__in=list(errors)).update(
            dispatched_at=None, error="", attempts=0
        )
        audit_record(
            actor=actor,
            action="outbox.send_again",
            subject_type="projections.outboxevent",
            details={"ids": list(errors), "errors": {str(k): v for k, v in errors.items()}},
        )
    return len(errors)


def outbox_prune(
    *, retention: timedelta = RETENTION, given_up_retention: timedelta = GIVEN_UP_RETENTION
) -> int:
    """Delete dispatched rows past retention (given-up rows past theirs); messages, not the
    outbox, are the replay source."""
    now = timezone.now()
    cutoff, given_up_cutoff = now - retention, now - given_up_retention
    # A row is dispatched after it is created: the creation bound adds nothing but an index
    # to find them by (this runs every few seconds; dispatched_at has none).
    deleted, _ = OutboxEvent.objects.filter(
        Q(error="", created_at__lt=cutoff, dispatched_at__lt=cutoff)
        | Q(created_at__lt=given_up_cutoff, dispatched_at__lt=given_up_cutoff),
        dispatched_at__isnull=False,
    ).delete()
    return deleted
