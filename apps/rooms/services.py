"""Room writes: posting, room events, read cursors, presence. Each entry takes the next room
sequence and writes its outbox row in the same transaction."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from uuid import UUID

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.campaigns.models import Campaign, CampaignMembership
from apps.core.errors import Conflict, PermissionDenied, ValidationFailed
from apps.core.sql import db_value, insert_select_sql, mark_saved
from apps.core.text import visible
from apps.projections.dispatch import ACCESS_VERSION, ROOM_ENTRY
from apps.projections.services import (
    outbox_emit_after,
    outbox_emit_with,
    outbox_event_new,
)

from .models import (
    MAX_BODY_LENGTH,
    MAX_PRIVATE_RECIPIENTS,
    Message,
    MessageRecipient,
    Presence,
    ReadCursor,
    Room,
)
from .selectors import MANAGER_ROLES, serialize_entry

PRESENCE_TTL = timedelta(seconds=75)


def room_get_or_create(*, campaign: Campaign) -> Room:
    room, _created = Room.objects.get_or_create(campaign=campaign)
    return room


def _outbox_audience(message: Message, recipient_ids: list[str]):
    if message.audience == Message.Audience.PRIVATE:
        return {"users": recipient_ids}
    return message.audience


def _validated_recipients(*, campaign_id, audience: str, recipient_ids: Iterable) -> list:
    """The recipient users (sorted by id); raises ValidationFailed."""
    ids = list(recipient_ids or [])
    if audience != Message.Audience.PRIVATE:
        if ids:
            raise _invalid_recipients(_("Recipients are only allowed for a private audience."))
        return []
    try:
        unique = sorted({str(UUID(str(i))) for i in ids})
    except (TypeError, ValueError):
        raise _invalid_recipients(_("Recipients must be member ids.")) from None
    if not 1 <= len(unique) <= MAX_PRIVATE_RECIPIENTS:
        raise _invalid_recipients(
            _("A private message needs 1 to %(max)d recipients.") % {"max": MAX_PRIVATE_RECIPIENTS}
        )
    active = {
        str(m.user_id): m.user
        for m in CampaignMembership.objects.select_related("user").filter(
            campaign_id=campaign_id,
            user_id__in=unique,
            status=CampaignMembership.Status.ACTIVE,
        )
    }
    missing = [u for u in unique if u not in active]
    if missing:
        raise _invalid_recipients(
            _("Every recipient must be an active member of this campaign."),
            not_members=missing,
        )
    return [active[u] for u in unique]


def _invalid_recipients(message: str, **details) -> ValidationFailed:
    # details.fields names the field, as the recovery ("the highlighted fields") says.
    return ValidationFailed(
        message, code="invalid_recipients", details={"fields": {"recipients": [message]}, **details}
    )


def _take_sequence(*, campaign_id) -> tuple[UUID, int, int] | None:
    """Increment the room counter and return (room id, new value, the campaign's access
    version); None when no room yet.

    One statement: the UPDATE takes the row lock, so concurrent writers get consecutive
    sequences and commit in sequence order (a reader that sees counter N sees every entry up to
    N). Django's ORM has no UPDATE ... RETURNING; both SQLite (>= 3.35) and PostgreSQL do.
    """
    table = connection.ops.quote_name(Room._meta.db_table)
    key = db_value(Room, "campaign", campaign_id)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET last_sequence = last_sequence + 1 "  # noqa: S608 (model table name)
            f"WHERE campaign_id = %s RETURNING id, last_sequence, {_access_version_sql()}",
            [key],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return Room._meta.pk.to_python(row[0]), row[1], row[2]


# The campaign's access version, read by the statement that takes the entry's sequence.
_ACCESS_VERSION = "(SELECT c.access_version FROM {campaign} AS c WHERE c.id = {room}.campaign_id)"


def _access_version_sql() -> str:
    qn = connection.ops.quote_name
    return _ACCESS_VERSION.format(
        campaign=qn(Campaign._meta.db_table), room=qn(Room._meta.db_table)
    )


def _append_entry(*, campaign_id, sender=None, recipients: list, **fields) -> Message:
    """Take the next sequence; write the entry, its recipients and its outbox row (in atomic()).

    One statement for a public message on PostgreSQL (counter, entry and outbox row), three
    elsewhere. The wire form is built from the objects in hand rather than read back.
    """
    append = _append_postgres if connection.vendor == "postgresql" else _append
    message = append(campaign_id, Message(sender=sender, **fields), recipients)
    if message is None:  # the room's first entry
        Room.objects.get_or_create(campaign_id=campaign_id)
        message = append(campaign_id, Message(sender=sender, **fields), recipients)
    if recipients:
        MessageRecipient.objects.bulk_create(
            [MessageRecipient(message=message, user=u) for u in recipients]
        )
    return message


def _append(campaign_id, message: Message, recipients: list) -> Message | None:
    taken = _take_sequence(campaign_id=campaign_id)
    if taken is None:
        return None
    message.room_id, message.sequence, access_version = taken
    outbox_emit_with(
        message,
        lambda: _entry_event(
            message, campaign_id=campaign_id, recipients=recipients, access_version=access_version
        ),
    )
    return message


def _append_postgres(campaign_id, message: Message, recipients: list) -> Message | None:
    """The counter's UPDATE, the entry and its outbox row in one statement; the entry's
    sequence reaches the outbox payload inside it."""
    message.sequence = 0  # set by the statement
    message_sql, message_params = insert_select_sql(
        Message, message, "seq", {"room": "seq.id", "sequence": "seq.last_sequence"}
    )
    event = outbox_event_new(**_entry_event(message, campaign_id=campaign_id,
                                            recipients=recipients, access_version=0))  # fmt: skip
    sql = _APPEND_SQL.format(
        room=connection.ops.quote_name(Room._meta.db_table), message=message_sql,
        access_version=_access_version_sql(),
    )  # fmt: skip
    written = outbox_emit_after(
        sql, [db_value(Room, "campaign", campaign_id), *message_params], event,
        exprs={"payload": "jsonb_set(jsonb_set(%s, '{sequence}', to_jsonb(written.sequence)), "
                          "'{access_version}', to_jsonb((SELECT access_version FROM seq)))"},
        returning="(SELECT room_id FROM written), (SELECT sequence FROM written), "
                  "(SELECT access_version FROM seq)",
    )  # fmt: skip
    if written is None:
        return None
    message.room_id, message.sequence, event.payload[ACCESS_VERSION] = written
    event.payload["sequence"] = message.sequence
    mark_saved(message)
    return message


# The counter takes the row lock, so concurrent writers get consecutive sequences and commit in
# sequence order (a reader that sees counter N sees every entry up to N). The outbox row follows
# (outbox_emit_after).
_APPEND_SQL = """
WITH seq AS (
    UPDATE {room} SET last_sequence = last_sequence + 1 WHERE campaign_id = %s
    RETURNING id, last_sequence, {access_version} AS access_version
),
written AS ({message} RETURNING room_id, sequence)
"""


def _entry_event(message: Message, *, campaign_id, recipients: list, access_version: int) -> dict:
    """The outbox row announcing an entry: its wire form, to the entry's own audience, with the
    access version it was written under (publication takes it out of the wire form)."""
    recipient_ids = [str(u.pk) for u in recipients]
    return {
        "event_type": ROOM_ENTRY,
        "campaign_id": campaign_id,
        "payload": {
            **serialize_entry(message, recipients=recipients),
            ACCESS_VERSION: access_version,
        },
        "audience": _outbox_audience(message, recipient_ids),
    }


def room_message_post(
    *,
    membership: CampaignMembership,
    body: str,
    mode: str,
    client_message_id: str,
    audience: str = Message.Audience.PUBLIC,
    recipient_ids: Iterable = (),
    savepoint: bool = True,
    data: dict | None = None,
) -> tuple[Message, bool]:
    """Post a member's message (with `data` for the page, such as the character an action is
    made as); returns (message, created). A repeat client_message_id returns
    the first message. Raises PermissionDenied (observer, narration or a non-public audience by a
    player), ValidationFailed (body, mode, audience, recipients) or Conflict (archived campaign,
    client id reused for different content). With `savepoint=False` (inside a caller's
    transaction that handles a repeat itself) a repeated client id raises IntegrityError, which
    leaves that transaction to be rolled back."""
    role = membership.role
    if membership.status != CampaignMembership.Status.ACTIVE:
        raise PermissionDenied(
            _("You are no longer a member of this campaign."),
            code="not_member",
            recovery=_("Ask the campaign's owner for a new invitation to take part again."),
        )
    if role == CampaignMembership.Role.OBSERVER:
        raise PermissionDenied(
            _("Observers can read the room but not post."),
            code="observer",
            recovery=_("Ask the campaign's owner to make you a player."),
        )
    if mode not in Message.Mode.values:
        raise ValidationFailed(_("Unknown message mode."), code="invalid_mode")
    if mode == Message.Mode.NARRATION and role not in MANAGER_ROLES:
        raise PermissionDenied(
            _("Only the owner or a GM can narrate."),
            code="narration_gm_only",
            recovery=_("Post it as chat, or as an action for the game master to resolve."),
        )
    if audience not in Message.Audience.values:
        raise ValidationFailed(_("Unknown audience."), code="invalid_audience")
    if audience != Message.Audience.PUBLIC and role not in MANAGER_ROLES:
        raise PermissionDenied(
            _("Only the owner or a GM can choose an audience."),
            code="audience_gm_only",
            recovery=_("Post it to everyone in the room."),
        )
    text = (body or "").strip()
    if not visible(text) or len(text) > MAX_BODY_LENGTH:
        raise ValidationFailed(
            _("A message has 1 to %(max)d characters.") % {"max": MAX_BODY_LENGTH},
            code="invalid_body",
        )
    cmid = (client_message_id or "").strip()
    if not 1 <= len(cmid) <= 160 or not cmid.isprintable():
        raise ValidationFailed(
            _("A client message id has 1 to 160 printable characters."),
            code="invalid_client_message_id",
        )
    campaign = membership.campaign
    room_writable(campaign)
    recipients = _validated_recipients(
        campaign_id=campaign.id, audience=audience, recipient_ids=recipient_ids
    )
    recipient_ids = [str(u.pk) for u in recipients]
    try:
        # Optimistic: a resubmission is rare, so the unique constraint detects it instead of a
        # lookup on every post; the rollback also returns the sequence number.
        with transaction.atomic(savepoint=savepoint):
            message = _append_entry(
                campaign_id=campaign.id,
                sender=membership.user,
                recipients=recipients,
                kind=Message.Kind.MESSAGE,
                mode=mode,
                body=text,
                audience=audience,
                client_message_id=cmid,
                # The role it was said in: a GM's words stay marked so after a demotion.
                data={**(data or {}), "sender_role": role},
            )
    except IntegrityError:
        if not savepoint:
            raise
        existing = _existing(campaign_id=campaign.id, sender_id=membership.user_id, cmid=cmid)
        if existing is None:
            raise
        return _same_or_conflict(existing, text, mode, audience, recipient_ids), False
    return message, True


def _existing(*, campaign_id, sender_id, cmid: str) -> Message | None:
    return (
        Message.objects.select_related("sender")
        .prefetch_related("recipient_links__user")
        .filter(room__campaign_id=campaign_id, sender_id=sender_id, client_message_id=cmid)
        .first()
    )


def room_writable(campaign: Campaign) -> None:
    """Raises Conflict (`archived`) unless the campaign's room takes posts and actions."""
    if campaign.status != Campaign.Status.ACTIVE:
        raise Conflict(
            _("This campaign is archived; its room is read-only."),
            code="archived",
            recovery=_("An archived campaign's story stays readable; start a new one to play on."),
        )


def _same_or_conflict(message: Message, body, mode, audience, recipients) -> Message:
    stored = sorted(str(link.user_id) for link in message.recipient_links.all())
    if (message.body, message.mode, message.audience, stored) != (body, mode, audience, recipients):
        raise Conflict(
            _("This client message id was already used for a different message."),
            code="client_message_id_reused",
            recovery=_("Send a different message with a new client message id."),
        )
    return message


def room_event_record(
    *,
    campaign: Campaign,
    event_type: str,
    data: dict | None = None,
    body: str = "",
    audience: str = Message.Audience.PUBLIC,
    recipient_ids: Iterable = (),
) -> Message:
    """Append a room event (join, phase change, job progress, state change) to the timeline.

    Joins the caller's transaction when there is one. Raises ValidationFailed for a bad audience.
    """
    if not event_type:
        raise ValidationFailed(_("A room event needs a type."), code="invalid_event_type")
    if audience not in Message.Audience.values:
        raise ValidationFailed(_("Unknown audience."), code="invalid_audience")
    recipients = _validated_recipients(
        campaign_id=campaign.id, audience=audience, recipient_ids=recipient_ids
    )
    # No savepoint: nothing here is expected to fail and be recovered from inside the caller's
    # transaction, and a savepoint costs two round trips per event.
    with transaction.atomic(savepoint=False):
        return _append_entry(
            campaign_id=campaign.id,
            recipients=recipients,
            kind=Message.Kind.EVENT,
            event_type=event_type,
            body=body,
            data=data or {},
            audience=audience,
        )


def room_mark_read(*, membership: CampaignMembership, sequence: int) -> int:
    """Move the member's read cursor forward (never back); returns the stored value.

    Raises ValidationFailed for a sequence outside the room.
    """
    room = room_get_or_create(campaign=membership.campaign)
    if sequence < 0 or sequence > room.last_sequence:
        problem = _("That sequence is not in this room.")
        raise ValidationFailed(
            problem, code="invalid_sequence", details={"fields": {"sequence": [problem]}}
        )
    cursor, _created = ReadCursor.objects.get_or_create(room=room, user_id=membership.user_id)
    ReadCursor.objects.filter(pk=cursor.pk, last_read_sequence__lt=sequence).update(
        last_read_sequence=sequence, updated_at=timezone.now()
    )
    return ReadCursor.objects.values_list("last_read_sequence", flat=True).get(pk=cursor.pk)


def presence_join(*, room_id, user_id, channel_name: str) -> None:
    now = timezone.now()
    Presence.objects.filter(room_id=room_id, last_seen__lt=now - PRESENCE_TTL).delete()
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={"room_id": room_id, "user_id": user_id, "last_seen": now},
    )


def presence_touch(*, room_id, channel_name: str) -> list[dict[str, str]]:
    """Renew this socket's presence and drop the room's sockets that stopped beating (their
    process ended without a disconnect); returns who is here now. Nobody broadcasts such a
    departure: each socket's beat compares this with what its page shows."""
    now = timezone.now()
    Presence.objects.filter(channel_name=channel_name).update(last_seen=now)
    Presence.objects.filter(room_id=room_id, last_seen__lt=now - PRESENCE_TTL).delete()
    return presence_list(room_id=room_id)


def presence_leave(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()


def presence_list(*, room_id) -> list[dict[str, str]]:
    """Who is in the room, once each (several sockets are one person), by name as a table
    reads a list of people."""
    rows = Presence.objects.filter(
        room_id=room_id, last_seen__gte=timezone.now() - PRESENCE_TTL
    ).select_related("user")
    people: dict[str, dict[str, str]] = {}
    for row in rows:
        people.setdefault(str(row.user_id), {"id": str(row.user_id), "name": row.user.label})
    return sorted(people.values(), key=lambda p: (p["name"].casefold(), p["id"]))
