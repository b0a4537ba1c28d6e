"""Room reads. The audience rule lives here once, in two forms of the same statement:
`entry_visible_to` (a predicate, for live delivery) and `visibility_q` (SQL, for the HTTP list and
replay). tests/rooms/test_audience_property.py proves they agree for random rooms."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from apps.campaigns.models import CAMPAIGN_RENAMED, CampaignMembership
from apps.campaigns.selectors import membership_for
from apps.projections.models import ROOM_EVENTS, OutboxEvent

from .models import Message, MessageRecipient, ReadCursor, Room

MANAGER_ROLES = frozenset({CampaignMembership.Role.OWNER, CampaignMembership.Role.GM})
DEFAULT_PAGE = 100
MAX_PAGE = 200


def entry_visible_to(
    *,
    audience: str,
    sender_id,
    recipient_ids: Iterable,
    viewer_user_id,
    viewer_role: str,
) -> bool:
    """Owner/GM see everything; others see public entries, their own, and private ones to them."""
    if viewer_role in MANAGER_ROLES:
        return True
    if audience == Message.Audience.PUBLIC:
        return True
    viewer = str(viewer_user_id)
    if sender_id is not None and str(sender_id) == viewer:
        return True
    return audience == Message.Audience.PRIVATE and viewer in {str(r) for r in recipient_ids}


def visibility_q(*, viewer_user_id, viewer_role: str) -> Q:
    """`entry_visible_to` as a queryset filter on Message."""
    if viewer_role in MANAGER_ROLES:
        return Q()
    addressed = Exists(
        MessageRecipient.objects.filter(message=OuterRef("pk"), user_id=viewer_user_id)
    )
    return (
        Q(audience=Message.Audience.PUBLIC)
        | Q(sender_id=viewer_user_id)
        | (Q(audience=Message.Audience.PRIVATE) & addressed)
    )


def message_visible_to(*, message: Message, membership: CampaignMembership | None) -> bool:
    if membership is None or membership.status != CampaignMembership.Status.ACTIVE:
        return False
    return entry_visible_to(
        audience=message.audience,
        sender_id=message.sender_id,
        recipient_ids=[link.user_id for link in message.recipient_links.all()],
        viewer_user_id=membership.user_id,
        viewer_role=membership.role,
    )


def outbox_audience_visible_to(*, audience, viewer_user_id, viewer_role: str) -> bool:
    """The same rule for outbox announcements ("public", "gm" or {"users": [...]})."""
    if isinstance(audience, dict):
        return entry_visible_to(
            audience=Message.Audience.PRIVATE,
            sender_id=None,
            recipient_ids=audience.get("users", []),
            viewer_user_id=viewer_user_id,
            viewer_role=viewer_role,
        )
    return entry_visible_to(
        audience=str(audience),
        sender_id=None,
        recipient_ids=(),
        viewer_user_id=viewer_user_id,
        viewer_role=viewer_role,
    )


# Room events a socket's heartbeat considers: those of the last second may still be on their way
# (published right after commit, or committed out of id order), so they wait for the next beat.
ROOM_EVENT_SETTLE = timedelta(seconds=1)
ROOM_EVENTS_READ = 200


def _room_events(*, campaign_id) -> QuerySet[OutboxEvent]:
    return OutboxEvent.objects.filter(ROOM_EVENTS, campaign_id=campaign_id)


def room_events_newest(*, campaign_id) -> int:
    """The outbox id of the room's newest event other than an entry or access news (0: none)."""
    return (
        _room_events(campaign_id=campaign_id).order_by("-id").values_list("id", flat=True).first()
        or 0
    )


def room_events_missed(
    *, campaign_id, after: int, viewer_user_id, viewer_role: str
) -> tuple[int, int | None]:
    """The room's settled events (not entries or access news) past outbox id `after`, oldest
    first, a batch at most: (the last id read, `after` when none; the newest of them the viewer
    may see, None when none)."""
    rows = list(
        _room_events(campaign_id=campaign_id)
        .filter(id__gt=after, created_at__lt=timezone.now() - ROOM_EVENT_SETTLE)
        # A missed rename is sent as the name itself (the consumer compares revisions): it
        # changes nothing the panels show, so it is no reason to read them again.
        .exclude(event_type=CAMPAIGN_RENAMED)
        .order_by("id")
        .values_list("id", "audience")[:ROOM_EVENTS_READ]
    )
    visible = [
        id_
        for id_, audience in rows
        if outbox_audience_visible_to(
            audience=audience, viewer_user_id=viewer_user_id, viewer_role=viewer_role
        )
    ]
    return (rows[-1][0] if rows else after), (visible[-1] if visible else None)


def room_game_masters(*, memberships: Iterable[CampaignMembership]) -> dict[str, list[str]]:
    """Who runs the game, as the room page marks entries' senders: the roles that do (for an
    entry that says the role it was sent in) and the members holding one now (for an older
    entry that does not, and the viewer's own while it is sending)."""
    return {
        "roles": sorted(MANAGER_ROLES),
        "members": [str(m.user_id) for m in memberships if m.role in MANAGER_ROLES],
    }


def room_for_campaign(*, campaign_id) -> Room | None:
    return Room.objects.filter(campaign_id=campaign_id).first()


def _visible(
    *, room: Room, viewer_membership: CampaignMembership, after: int, upto: int | None
) -> QuerySet[Message]:
    qs = Message.objects.filter(room=room, sequence__gt=after)
    if upto is not None:
        qs = qs.filter(sequence__lte=upto)
    return qs.filter(
        visibility_q(viewer_user_id=viewer_membership.user_id, viewer_role=viewer_membership.role)
    )


def _visible_messages(
    *, room: Room, viewer_membership: CampaignMembership, after: int, upto: int | None
) -> QuerySet[Message]:
    return (
        _visible(room=room, viewer_membership=viewer_membership, after=after, upto=upto)
        .select_related("sender")
        .prefetch_related("recipient_links__user")
        .order_by("sequence")
    )


# Entries a room page replays when it opens; older ones load on request ("Load earlier").
ROOM_PAGE_WINDOW = 200


@dataclass(frozen=True)
class RoomOpening:
    """Where the viewer's room opens: the sequence after which their newest `window` visible
    entries begin (0: the whole history fits), and whether they may read any entry at all (the
    page says it is loading them)."""

    start_after: int
    has_entries: bool


def room_opening_for(
    *, room: Room, viewer_membership: CampaignMembership, window: int = ROOM_PAGE_WINDOW
) -> RoomOpening:
    """Where the viewer's room opens, from one read of their newest visible entries."""
    newest = list(
        _visible(room=room, viewer_membership=viewer_membership, after=0, upto=None)
        .order_by("-sequence")
        .values_list("sequence", flat=True)[: window + 1]
    )
    # Only a visible entry beyond the window leaves something to load earlier: entries the
    # viewer may not read, before the window, are not history to them.
    start_after = newest[window - 1] - 1 if len(newest) > window else 0
    return RoomOpening(start_after=start_after, has_entries=bool(newest))


def room_messages_before_for_viewer(
    *,
    room: Room,
    viewer_membership: CampaignMembership,
    before: int,
    limit: int = DEFAULT_PAGE,
    after: int = 0,
) -> tuple[list[Message], bool]:
    """The newest `limit` visible entries before `before` (and after `after`), in sequence
    order, and whether older visible ones (after `after`) exist."""
    limit = max(1, min(limit, MAX_PAGE))
    rows = list(
        _visible_messages(
            room=room, viewer_membership=viewer_membership, after=after, upto=before - 1
        ).order_by("-sequence")[: limit + 1]
    )
    return rows[:limit][::-1], len(rows) > limit


def room_messages_for_viewer(
    *,
    room: Room,
    viewer_membership: CampaignMembership,
    after: int = 0,
    limit: int = DEFAULT_PAGE,
    upto: int | None = None,
) -> list[Message]:
    """Entries after `after` (and up to `upto`) that the viewer may see, in sequence order."""
    return list(
        _visible_messages(room=room, viewer_membership=viewer_membership, after=after, upto=upto)[
            : max(1, min(limit, MAX_PAGE))
        ]
    )


def room_message_page_for_viewer(
    *, room: Room, viewer_membership: CampaignMembership, after: int = 0, limit: int = DEFAULT_PAGE
) -> tuple[list[Message], bool]:
    """One page of `room_messages_for_viewer` and whether more visible entries follow it."""
    limit = max(1, min(limit, MAX_PAGE))
    # One row past the page tells whether another page exists, also at MAX_PAGE.
    rows = list(
        _visible_messages(room=room, viewer_membership=viewer_membership, after=after, upto=None)[
            : limit + 1
        ]
    )
    return rows[:limit], len(rows) > limit


@dataclass(frozen=True)
class Replay:
    membership: CampaignMembership
    entries: list[dict[str, Any]]
    # Every room sequence up to here has been considered (delivered or filtered out).
    covered_upto: int
    complete: bool


def room_replay_for_viewer(
    *, campaign_id, user, after: int, limit: int = MAX_PAGE
) -> Replay | None:
    """One replay batch for a socket; None when the user is no longer an active member."""
    # Read the counter first: the counter and the entry commit together, so every entry up to
    # this value is already visible to this query. Then the membership: every entry up to the
    # counter was written before it is read, so a role taken away before an entry was written
    # is never used to filter that entry.
    row = Room.objects.filter(campaign_id=campaign_id).values_list("id", "last_sequence").first()
    membership = membership_for(campaign_id=campaign_id, user=user)
    if membership is None:
        return None
    if row is None or row[1] <= after:
        # A cursor past the room's last entry (a hand-made or stale one) comes back to it, or
        # the next entries would be taken as already sent.
        last = row[1] if row is not None else 0
        return Replay(membership=membership, entries=[], covered_upto=last, complete=True)
    room_id, last = row
    messages = room_messages_for_viewer(
        room=Room(id=room_id), viewer_membership=membership, after=after, limit=limit, upto=last
    )
    complete = len(messages) < limit
    covered = last if complete else messages[-1].sequence
    return Replay(
        membership=membership,
        entries=[serialize_entry(m) for m in messages],
        covered_upto=covered,
        complete=complete,
    )


def room_last_sequence(*, campaign_id) -> int:
    return (
        Room.objects.filter(campaign_id=campaign_id).values_list("last_sequence", flat=True).first()
        or 0
    )


def read_cursor_for(*, room: Room, user) -> int:
    return (
        ReadCursor.objects.filter(room=room, user=user)
        .values_list("last_read_sequence", flat=True)
        .first()
        or 0
    )


def _person(user) -> dict[str, str] | None:
    if user is None:
        return None
    return {"id": str(user.id), "name": user.label}


def serialize_entry(message: Message, *, recipients: list | None = None) -> dict[str, Any]:
    """The one wire shape of a timeline entry (HTTP list, replay and live delivery).

    `recipients` (users) spares a query when the writer already holds them.
    """
    if recipients is None:
        recipients = [link.user for link in message.recipient_links.all()]
    people = sorted((_person(u) for u in recipients), key=lambda p: p["id"])
    return {
        "id": str(message.id),
        "sequence": message.sequence,
        "kind": message.kind,
        "mode": message.mode,
        "event_type": message.event_type,
        "body": message.body,
        "data": message.data,
        "audience": message.audience,
        "recipients": people,
        "sender": _person(message.sender),
        "client_message_id": message.client_message_id,
        "created_at": message.created_at.isoformat(),
    }
