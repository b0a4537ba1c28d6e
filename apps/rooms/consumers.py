"""Websocket transport for a room: /ws/rooms/<campaign_id>/?after=<sequence>.

Server frames (JSON):
  {"type": "hello", "user_id", "role", "heartbeat_seconds", "campaign": {"name", "name_revision"}}
  {"type": "entry", "entry": {...serialize_entry...}}   once per sequence per socket
  {"type": "caught_up", "sequence": N}   replay done up to room sequence N
  {"type": "event", "event_type", "outbox_id", "payload"}   other announcements, filtered
    (a `state.changed` with an empty payload: read the panels again, events were missed;
    a `campaign.renamed`: {"name", "name_revision"}, the name the page shows from now on)
  {"type": "presence", "users": [{"id", "name"}]}
  {"type": "campaign", "name", "name_revision"}   a rename this socket's page was not sent
  {"type": "heartbeat"} / {"type": "pong"}
  {"type": "access.revoked", "reason"}                          followed by close 4403
Client frames: {"type": "ping"}.
Close codes: see CLOSE_* below.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from urllib.parse import parse_qs
from uuid import UUID

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from apps.accounts.middleware import session_store, session_user
from apps.accounts.selectors import legal_acceptance_required
from apps.campaigns.models import CAMPAIGN_RENAMED, Campaign
from apps.campaigns.selectors import membership_for
from apps.projections.dispatch import ACCESS_VERSION, REFRESH_EVENT
from apps.projections.groups import room_group, user_group

from . import services
from .selectors import (
    entry_visible_to,
    outbox_audience_visible_to,
    room_events_missed,
    room_events_newest,
    room_last_sequence,
    room_replay_for_viewer,
)

logger = logging.getLogger(__name__)

CLOSE_BAD_REQUEST = 4400  # malformed campaign id or `after`
CLOSE_UNAUTHENTICATED = 4401  # no signed-in session (at connect or ended since): sign in
CLOSE_ACCESS_REVOKED = 4403  # removed from the campaign while connected: do not reconnect
CLOSE_NOT_FOUND = 4404  # no such campaign, or not a member (deliberately indistinguishable)
CLOSE_TERMS_NOT_ACCEPTED = 4412  # newer terms or privacy notice to accept: reload the page


# Every socket in a room that may see an entry or event is sent the same text: encode it once
# per process. Keys are (campaign, sequence) and (campaign, "outbox", id): never reused.
_FRAMES: OrderedDict[tuple, str] = OrderedDict()
_FRAMES_KEPT = 1024


def _frame_text(key: tuple, frame: dict) -> str:
    text = _FRAMES.get(key)
    if text is None:
        text = _FRAMES[key] = json.dumps(frame)  # as send_json encodes
        if len(_FRAMES) > _FRAMES_KEPT:
            _FRAMES.popitem(last=False)
    return text


def heartbeat_seconds() -> float:
    return float(getattr(settings, "ROOMS_HEARTBEAT_SECONDS", 20))


TERMS_NOT_ACCEPTED = "terms_not_accepted"


@database_sync_to_async
def _open(campaign_id, user, channel_name):
    # As for pages: nothing of the product until the current terms are accepted. A new version
    # comes with a restart, which reconnects every socket through here.
    if legal_acceptance_required(user=user):
        return TERMS_NOT_ACCEPTED, None, [], 0
    membership = membership_for(campaign_id=campaign_id, user=user)
    if membership is None:
        return None, None, [], 0
    room = services.room_get_or_create(campaign=membership.campaign)
    services.presence_join(room_id=room.id, user_id=user.id, channel_name=channel_name)
    # Read before the socket joins the room: what comes after is sent or found missed; what
    # came before, the page reads with its panels once caught up.
    events_seen = room_events_newest(campaign_id=campaign_id)
    return membership, room, services.presence_list(room_id=room.id), events_seen


@database_sync_to_async
def _close(room_id, channel_name):
    services.presence_leave(channel_name=channel_name)
    return services.presence_list(room_id=room_id)


SIGNED_OUT = "signed_out"


def _access(campaign_id, user, session_key):
    """The socket's membership now; SIGNED_OUT when the session it connected with ended."""
    if session_key is not None:
        # The session the socket connected with, checked as at connect: gone or expired
        # (signed out, "sign out everywhere else"), password changed, or user deactivated.
        current = session_user(session_store(session_key))
        if current.pk != user.pk or not current.is_active:
            return SIGNED_OUT
        user = current
    return membership_for(campaign_id=campaign_id, user=user)


@database_sync_to_async
def _beat(campaign_id, room_id, user, channel_name, session_key, events_seen):
    """(membership, last sequence, who is here, room events missed as `room_events_missed`
    returns them); membership is SIGNED_OUT when the socket's session ended."""
    membership = _access(campaign_id, user, session_key)
    if membership is None or membership is SIGNED_OUT:
        return membership, 0, None, (events_seen, None)
    present = services.presence_touch(room_id=room_id, channel_name=channel_name)
    missed = room_events_missed(
        campaign_id=campaign_id, after=events_seen, viewer_user_id=user.id,
        viewer_role=membership.role,
    )  # fmt: skip
    return membership, room_last_sequence(campaign_id=campaign_id), present, missed


class RoomConsumer(AsyncJsonWebsocketConsumer):
    campaign_id: str = ""
    room_id = None
    role: str = ""
    archived: bool = False
    # The campaign's access version when this socket last read its membership.
    access_version: int = 0
    cursor: int = 0
    # The outbox id of the newest room event (not an entry) the page was sent or told it missed:
    # every one sent makes it read its panels, which covers whatever came before.
    events_seen: int = 0
    # None when the socket was authenticated without a session (tests set scope["user"]).
    session_key: str | None = None
    # The presence list this socket last sent its page.
    present: list | None = None
    # The campaign name's revision this socket last told its page (in its hello or an event).
    name_revision: int = 0
    _heartbeat: asyncio.Task | None = None

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        # Channels' default first hops to the shared sync thread to close stale database
        # connections, once per delivered frame; every database call here already runs
        # through database_sync_to_async, which does that itself.
        try:
            await handler(message)
        except OSError:
            # A send after the client left (uvicorn's ClientDisconnected) ends the consumer
            # without a disconnect message: leave the groups and presence here instead.
            await self.disconnect(1006)
            raise StopConsumer() from None

    async def connect(self):
        # Accept first: a close before accept becomes an HTTP 403 and the client sees no code.
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        try:
            self.campaign_id = str(UUID(self.scope["url_route"]["kwargs"]["campaign_id"]))
            query = parse_qs(self.scope.get("query_string", b"").decode())
            self.cursor = int(query.get("after", ["0"])[0])
            if self.cursor < 0:
                raise ValueError
        except (KeyError, ValueError):
            await self.close(code=CLOSE_BAD_REQUEST)
            return
        self.user = user
        self.user_id = user.id  # read per delivered frame: not through the lazy user object
        session = self.scope.get("session")
        self.session_key = session.session_key if session is not None else None
        membership, room, present, events_seen = await _open(
            self.campaign_id, user, self.channel_name
        )
        if membership is TERMS_NOT_ACCEPTED:
            await self.close(code=CLOSE_TERMS_NOT_ACCEPTED)
            return
        if membership is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.role, self.room_id, self.events_seen = membership.role, room.id, events_seen
        self.access_version = membership.campaign.access_version
        self.archived = membership.campaign.status != Campaign.Status.ACTIVE
        self.name_revision = membership.campaign.name_revision
        # Join before replaying so nothing committed after the replay's read can be missed.
        await self.channel_layer.group_add(room_group(self.campaign_id), self.channel_name)
        await self.channel_layer.group_add(user_group(user.id), self.channel_name)
        await self.send_json(
            {
                "type": "hello",
                "user_id": str(user.id),
                "role": self.role,
                "heartbeat_seconds": heartbeat_seconds(),
                # The page may be older than a rename this socket's predecessor missed.
                "campaign": {
                    "name": membership.campaign.name,
                    "name_revision": membership.campaign.name_revision,
                },
            }
        )
        await self.channel_layer.group_send(
            room_group(self.campaign_id), {"type": "presence.update", "users": present}
        )
        if await self.catch_up():
            self._heartbeat = asyncio.create_task(self._beat_forever())

    async def disconnect(self, code):
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if self.room_id is None:
            return
        await self.channel_layer.group_discard(room_group(self.campaign_id), self.channel_name)
        await self.channel_layer.group_discard(user_group(self.user.id), self.channel_name)
        present = await _close(self.room_id, self.channel_name)
        await self.channel_layer.group_send(
            room_group(self.campaign_id), {"type": "presence.update", "users": present}
        )
        self.room_id = None

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        # Only JSON text frames mean anything here. Anything else is ignored: raising would end
        # the consumer without a disconnect, its presence left behind.
        if text_data is None:
            return
        try:
            content = await self.decode_json(text_data)
        except ValueError:
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content, **kwargs):
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})

    async def catch_up(self) -> bool:
        """Replay from the database after the cursor; False when access is gone (socket closed)."""
        while True:
            replay = await database_sync_to_async(room_replay_for_viewer)(
                campaign_id=self.campaign_id, user=self.user, after=self.cursor
            )
            if replay is None:
                await self._revoke("removed")
                return False
            # The replay filtered with this membership: take it as _follow does, so a new role
            # read here first (its own event may come later) is still told to the page.
            await self._follow(replay.membership)
            for entry in replay.entries:
                await self.send_json({"type": "entry", "entry": entry})
            self.cursor = replay.covered_upto
            if replay.complete:
                await self.send_json({"type": "caught_up", "sequence": self.cursor})
                return True

    async def _revoke(self, reason: str) -> None:
        await self.send_json({"type": "access.revoked", "reason": reason})
        await self._end(CLOSE_ACCESS_REVOKED)

    async def _end(self, code: int) -> None:
        # Leave the groups now rather than on the client's disconnect, which may come later:
        # nothing more reaches a socket that lost its access.
        await self.disconnect(code)
        await self.close(code=code)

    async def _beat_forever(self):
        # Ticks go through the channel so they run in order with group events, never beside them.
        interval = heartbeat_seconds()
        try:
            while True:
                await asyncio.sleep(interval)
                await self.channel_layer.send(self.channel_name, {"type": "room.tick"})
        except asyncio.CancelledError:
            pass

    # --- channel-layer handlers ---------------------------------------------------------------

    async def room_entry(self, event):
        if self.room_id is None:
            return  # closing: a frame queued before the socket left its groups
        entry = event["entry"]
        sequence = entry["sequence"]
        if sequence <= self.cursor:
            return  # at-least-once delivery: already sent or filtered out
        if sequence != self.cursor + 1:
            await self.catch_up()  # a wake-up was lost or arrived out of order
            return
        self.cursor = sequence
        if not await self._access_read_for(event):
            return
        if entry_visible_to(
            audience=entry["audience"],
            sender_id=(entry["sender"] or {}).get("id"),
            recipient_ids=[r["id"] for r in entry["recipients"]],
            viewer_user_id=self.user_id,
            viewer_role=self.role,
        ):
            frame = {"type": "entry", "entry": entry}
            await self.send(text_data=_frame_text((self.campaign_id, sequence), frame))

    async def outbox_event(self, event):
        if self.room_id is None or not await self._access_read_for(event):
            return
        if outbox_audience_visible_to(
            audience=event["audience"], viewer_user_id=self.user_id, viewer_role=self.role
        ):
            frame = {
                "type": "event",
                "event_type": event["event_type"],
                "outbox_id": event["outbox_id"],
                "payload": event["payload"],
            }
            await self.send(
                text_data=_frame_text((self.campaign_id, "outbox", event["outbox_id"]), frame)
            )
            self.events_seen = max(self.events_seen, event["outbox_id"])
            if event["event_type"] == CAMPAIGN_RENAMED:
                revision = event["payload"].get("name_revision", 0)
                self.name_revision = max(self.name_revision, revision)

    async def _access_read_for(self, event) -> bool:
        """Whether the socket still has access to be sent an entry or event. One written after
        a change of who may read the room, whose news may come later (each process publishes
        its own rows), first has this socket's access read (False: the socket was closed)."""
        if event.get(ACCESS_VERSION, 0) <= self.access_version:
            return True
        membership = await database_sync_to_async(_access)(
            self.campaign_id, self.user, self.session_key
        )
        return await self._follow(membership)

    async def presence_update(self, event):
        if self.room_id is not None:
            await self._send_presence(event["users"])

    async def _send_presence(self, users: list) -> None:
        self.present = users
        await self.send_json({"type": "presence", "users": users})

    async def access_revoked(self, event):
        if event.get("campaign_id") != self.campaign_id or self.room_id is None:
            return
        # The row is committed before publication; a re-added member keeps the socket. The
        # session is read again too: "sign out everywhere else" ends the other sockets now.
        membership = await database_sync_to_async(_access)(
            self.campaign_id, self.user, self.session_key
        )
        await self._follow(membership, reason=event.get("reason") or "removed")

    async def _follow(self, membership, *, reason: str = "removed") -> bool:
        """Act on the access just read: end the socket when its session ended or the member is
        gone (False); else take the membership's role (what this socket is sent follows it at
        once) and tell the page when its role or the campaign's state changed (True)."""
        if membership is SIGNED_OUT:
            await self._end(CLOSE_UNAUTHENTICATED)
            return False
        if membership is None:
            await self._revoke(reason)
            return False
        archived = membership.campaign.status != Campaign.Status.ACTIVE
        changed = membership.role != self.role or archived != self.archived
        self.role, self.archived = membership.role, archived
        self.access_version = membership.campaign.access_version
        if changed:
            await self.send_json(
                {"type": "access.changed", "role": membership.role, "archived": archived}
            )
        return True

    async def room_tick(self, event):
        if self.room_id is None:
            return
        membership, last, present, (read_upto, missed) = await _beat(
            self.campaign_id, self.room_id, self.user, self.channel_name, self.session_key,
            self.events_seen,
        )  # fmt: skip
        if not await self._follow(membership):
            return
        # Published while this socket was not subscribed (redis-py resubscribes after a Redis
        # restart without a word): the page reads its panels again, as on any state change.
        self.events_seen = max(self.events_seen, read_upto)
        if missed is not None:
            await self.send_json(
                {"type": "event", "event_type": REFRESH_EVENT, "outbox_id": missed, "payload": {}}
            )
        campaign = membership.campaign
        if campaign.name_revision > self.name_revision:
            # A rename whose announcement never reached this socket (published while it was
            # joining the room or while its subscription was down).
            self.name_revision = campaign.name_revision
            await self.send_json(
                {"type": "campaign", "name": campaign.name, "name_revision": campaign.name_revision}
            )
        if present != self.present:
            # Broadcasts of sockets opening or closing at once can arrive out of order, and a
            # socket whose process died sends none: the beat sends this page the list it missed.
            await self._send_presence(present)
        if last > self.cursor:
            await self.catch_up()  # reconciliation: covers a lost wake-up with no later traffic
        await self.send_json({"type": "heartbeat"})
