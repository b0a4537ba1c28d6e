"""Publication of outbox rows to channel groups, and the embedded-mode in-process poller.

Hosted mode (channels-redis): every process publishes its own rows right after commit, and the
Celery beat sweep (`projections.outbox_sweep`) publishes anything a crash left behind.
Embedded mode (in-memory layer): only the ASGI web process can reach the sockets, so it runs a
poller over the outbox table; rows written by other processes (the Celery worker) arrive that way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings

from .groups import room_group, user_group
from .models import OutboxEvent

logger = logging.getLogger(__name__)

ROOM_ENTRY = "room.entry"
ACCESS_REVOKED = "access.revoked"

_poller: asyncio.Task | None = None
_poller_stop: asyncio.Event | None = None


def layer_is_process_local() -> bool:
    return isinstance(get_channel_layer(), InMemoryChannelLayer)


def publishes_on_commit() -> bool:
    """Publish right after commit unless only a poller elsewhere can reach the sockets."""
    if get_channel_layer() is None:
        return False
    return not layer_is_process_local() or _poller is not None


def _messages_for(event: OutboxEvent) -> Iterable[tuple[str, dict]]:
    campaign = str(event.campaign_id)
    if event.event_type == ACCESS_REVOKED:
        audience = event.audience if isinstance(event.audience, dict) else {}
        for user_id in audience.get("users", []):
            yield (
                user_group(user_id),
                {
                    "type": "access.revoked",
                    "campaign_id": campaign,
                    "reason": event.payload.get("reason", ""),
                },
            )
    elif event.event_type == ROOM_ENTRY:
        yield room_group(campaign), {"type": "room.entry", "entry": event.payload}
    else:
        # Other announcements (state.changed, job progress, ...) go to the room and are
        # filtered per viewer by the consumer with the same audience rule as messages.
        yield (
            room_group(campaign),
            {
                "type": "outbox.event",
                "event_type": event.event_type,
                "outbox_id": event.id,
                "payload": event.payload,
                "audience": event.audience,
            },
        )


async def publish_events(events: Iterable[OutboxEvent]) -> None:
    layer = get_channel_layer()
    for event in events:
        for group, message in _messages_for(event):
            await layer.group_send(group, message)


def _poll_interval() -> float:
    return float(getattr(settings, "OUTBOX_POLL_INTERVAL", 0.15))


async def _poll_forever(stop: asyncio.Event) -> None:
    from .services import outbox_dispatch

    interval = _poll_interval()
    dispatch = database_sync_to_async(outbox_dispatch)
    while not stop.is_set():
        try:
            sent = await dispatch()
        except Exception:
            logger.exception("Outbox poll failed")
            sent = 0
        if sent:
            continue  # drain a backlog without sleeping between batches
        try:
            await asyncio.wait_for(stop.wait(), timeout=interval)
        except TimeoutError:
            pass


def start_outbox_poller() -> bool:
    """Start the in-process poller on the running loop when the channel layer is process-local."""
    global _poller, _poller_stop
    if _poller is not None or not layer_is_process_local():
        return False
    _poller_stop = asyncio.Event()
    _poller = asyncio.get_running_loop().create_task(_poll_forever(_poller_stop))
    return True


async def stop_outbox_poller() -> None:
    global _poller, _poller_stop
    if _poller is None:
        return
    _poller_stop.set()
    try:
        await asyncio.wait_for(_poller, timeout=5)
    except (TimeoutError, asyncio.CancelledError):
        _poller.cancel()
    _poller, _poller_stop = None, None
