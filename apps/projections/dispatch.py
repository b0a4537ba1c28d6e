"""Publication of outbox rows to channel groups, and the embedded-mode in-process poller.

Hosted mode (channels-redis): every process publishes its own rows right after commit through a
long-lived publisher loop, and the Celery beat sweep (`projections.outbox_sweep`) publishes
anything a crash left behind.
Embedded mode (in-memory layer): only the ASGI web process can reach the sockets, so it runs a
poller over the outbox table; rows written by other processes (the Celery worker) arrive that way.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor

import redis.exceptions
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import connections

from .groups import room_group, user_group
from .models import ACCESS_REVOKED, ROOM_ENTRY, OutboxEvent

logger = logging.getLogger(__name__)

# Kept in the outbox payload of a room entry or event, sent beside it rather than in it.
ACCESS_VERSION = "access_version"
# The announcement on which pages read their panels again (sent in place of a given-up one).
REFRESH_EVENT = "state.changed"
PUBLISH_TIMEOUT = 10.0
# How much longer than a send may take a caller waits for the loop publishing for it.
LOOP_GRACE = 1.0
MARK_COALESCE_SECONDS = 0.05

_poller: asyncio.Task | None = None
_poller_stop: asyncio.Event | None = None


def layer_is_process_local() -> bool:
    return isinstance(get_channel_layer(), InMemoryChannelLayer)


def reaches_sockets() -> bool:
    """Whether this process's publications reach the sockets: not where the layer is
    process-local and the server holding them runs elsewhere (the embedded Celery worker)."""
    if get_channel_layer() is None:
        return False
    return not layer_is_process_local() or publisher.server_loop is not None


def publishes_on_commit() -> bool:
    """Publish right after commit unless only a poller elsewhere can reach the sockets."""
    return reaches_sockets()


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
        entry = dict(event.payload)
        access_version = entry.pop(ACCESS_VERSION, 0)
        yield room_group(campaign), {
            "type": "room.entry", "entry": entry, ACCESS_VERSION: access_version,
        }  # fmt: skip
    else:
        # Other announcements (state.changed, job progress, ...) go to the room and are
        # filtered per viewer by the consumer with the same audience rule as messages.
        payload = dict(event.payload)
        access_version = payload.pop(ACCESS_VERSION, 0)
        yield (
            room_group(campaign),
            {
                "type": "outbox.event",
                "event_type": event.event_type,
                "outbox_id": event.id,
                "payload": payload,
                "audience": event.audience,
                ACCESS_VERSION: access_version,
            },
        )


async def publish_events(events: Iterable[OutboxEvent]) -> None:
    layer = get_channel_layer()
    for event in events:
        for group, message in _messages_for(event):
            await layer.group_send(group, message)


async def publish_each(
    events: Iterable[OutboxEvent],
    published: list[int],
    failed: dict[int, Exception],
    deadline: float | None = None,
    until: float | None = None,
) -> None:
    """Publish the events one at a time, recording each outcome as it comes (the caller reads
    them even if it stops waiting): one that raises holds back none of the others, unless the
    layer can take none (`layer_unavailable`). Then the round ends: that event fails and those
    after it are left as they were, neither sent nor failed. So it does when a send is not
    answered within PUBLISH_TIMEOUT: a timeout for each send, not for the round, so a slow
    layer that answers is not taken for one that hangs. Past `deadline` (a `time.monotonic()`
    reading) the round ends too, after one event at least, the rest left as they were; past
    `until` no event is started, and none is waited for."""
    for index, event in enumerate(events):
        now = time.monotonic()
        if index and deadline is not None and now >= deadline:
            return
        timeout = PUBLISH_TIMEOUT if until is None else min(PUBLISH_TIMEOUT, until - now)
        if timeout <= 0:
            return
        try:
            await _answered_within(publish_events([event]), timeout)
        except Exception as error:
            failed[event.id] = error
            if layer_unavailable(error):
                return
        else:
            published.append(event.id)


# What a channel layer that cannot be reached raises, as opposed to a row it cannot send.
LAYER_UNREACHABLE = (
    TimeoutError,
    ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.ConnectionError,
)
# Replies (by their first word) of a Redis that is up but refuses every command, or every write,
# from anyone for now: busy in a script, loading, a replica cut off from its master or read-only,
# out of memory, unable to persist or replicate. The next row would meet the same refusal. Not
# NOPERM: an ACL names channels, so a denial can be one group's, and the row's.
LAYER_REFUSALS = frozenset(
    {"BUSY", "LOADING", "MASTERDOWN", "READONLY", "OOM", "MISCONF", "NOREPLICAS"}
)


def layer_unavailable(error: BaseException) -> bool:
    """Whether `error` says the channel layer cannot take any send now (unreachable, or a Redis
    refusing every command), as opposed to the one row it was sending."""
    if isinstance(error, LAYER_UNREACHABLE):
        return True
    if not isinstance(error, redis.exceptions.ResponseError):
        return False
    # redis-py moves a code it knows into `status_code` and raises others with the whole reply.
    code = getattr(error, "status_code", None) or str(error).split(" ", 1)[0]
    return code in LAYER_REFUSALS


async def _answered_within(send: Coroutine, timeout: float) -> None:
    """Await `send`; past `timeout`, cancel it and raise TimeoutError without waiting for the
    cancellation to land (redis-py can swallow one that lands mid-command)."""
    task = asyncio.ensure_future(send)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not done:
        task.cancel()
        task.add_done_callback(_retrieved)
        raise TimeoutError(f"no answer from the channel layer within {timeout:.3g} s")
    task.result()


def _retrieved(task: asyncio.Task) -> None:
    # Read the outcome of a send given up on, so asyncio does not log it as never retrieved.
    if not task.cancelled():
        task.exception()


class Publisher:
    """One per process. Publishes from a long-lived event loop, so a post pays neither a new
    loop nor a new Redis connection, and marks rows dispatched in batches off the request path.

    The loop is the ASGI server's own loop when the lifespan attached it (required for the
    in-memory layer, whose queues belong to that loop), else a daemon thread's loop.
    """

    def __init__(self) -> None:
        self.server_loop: asyncio.AbstractEventLoop | None = None
        self._own_loop: asyncio.AbstractEventLoop | None = None
        self._own_thread: threading.Thread | None = None
        self._queues: dict[asyncio.AbstractEventLoop, asyncio.Queue] = {}
        self._lock = threading.Lock()
        # One thread keeps one connection for the batched "dispatched" updates: opening a
        # database connection per batch costs more than the UPDATE itself.
        self._marker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="outbox-mark")
        self._unmarked: list[int] = []
        self._unmarked_lock = threading.Lock()
        # Rows handed to this process's publisher and not yet marked dispatched (or failed),
        # by when they were handed over: the embedded poller, in this same process, leaves
        # them alone instead of re-sending, unless one has been stuck past PUBLISH_TIMEOUT.
        self._in_flight: dict[int, float] = {}

    # --- loops ----------------------------------------------------------------------------

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self.server_loop = loop

    def detach(self) -> None:
        if self.server_loop is not None:
            self._queues.pop(self.server_loop, None)
        self.server_loop = None

    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The loop that publishes; None means the caller's loop (in-memory layer, no server)."""
        if self.server_loop is not None:
            return self.server_loop
        if layer_is_process_local():
            return None
        with self._lock:
            if self._own_loop is None:
                loop = asyncio.new_event_loop()
                self._own_thread = threading.Thread(
                    target=_run_until_stopped, args=(loop,), name="outbox-publisher", daemon=True
                )
                self._own_thread.start()
                self._own_loop = loop
            return self._own_loop

    def reset(self, timeout: float = 5.0) -> None:
        """Forget every loop and queue (tests): detach the server loop, stop this process's own
        loop and thread, then let queued "dispatched" marks finish and close their connection.
        Rows not yet published stay pending for the sweep or the poller."""
        with self._lock:
            own, thread = self._own_loop, self._own_thread
            self.server_loop = self._own_loop = self._own_thread = None
            self._queues.clear()
        with self._unmarked_lock:
            self._in_flight.clear()
        if own is not None:
            own.call_soon_threadsafe(own.stop)
            thread.join(timeout)
        self.release_connection(timeout)

    # --- publication --------------------------------------------------------------------------

    def publish_now(
        self, events: list[OutboxEvent], deadline: float | None = None, until: float | None = None
    ) -> tuple[list[int], dict[int, Exception]]:
        """Publish and wait (sweep, poller): returns the ids published and, by id, what the
        others raised. Each send is given PUBLISH_TIMEOUT (see `publish_each`, which also says
        what `deadline` and `until` bound)."""
        published: list[int] = []
        failed: dict[int, Exception] = {}
        loop = self.loop()
        if loop is None:
            async_to_sync(publish_each)(events, published, failed, deadline, until)
            return published, failed
        future = asyncio.run_coroutine_threadsafe(
            publish_each(events, published, failed, deadline, until), loop
        )
        # Each send is bounded on the loop; this wait only guards against a loop that runs
        # none, so it gives up when no outcome at all came for longer than a send may take.
        recorded, wait = 0, PUBLISH_TIMEOUT + LOOP_GRACE
        while True:
            try:
                future.result(wait)
                return published, failed
            except TimeoutError:
                if len(published) + len(failed) == recorded:
                    break
                recorded = len(published) + len(failed)
        future.cancel()
        # Copies: the cancelled task may still record the event it was sending; at worst that
        # one is sent again.
        published, failed = list(published), dict(failed)
        settled = {*published, *failed}
        stuck = next((event.id for event in events if event.id not in settled), None)
        if stuck is not None:
            # The wait's own TimeoutError says nothing; this is what a given-up row shows.
            failed[stuck] = TimeoutError(
                f"publication timed out after {wait:.3g} s waiting for the channel layer"
            )
        return published, failed

    def submit(self, events: list[OutboxEvent]) -> None:
        """Queue committed rows for publication and return at once (after-commit path)."""
        loop = self.loop()
        if loop is None:
            return  # nobody in this process can reach the sockets; a poller or sweep will
        now = time.monotonic()
        with self._unmarked_lock:
            self._in_flight.update((event.id, now) for event in events)
        loop.call_soon_threadsafe(self._enqueue, loop, events)

    def in_flight(self) -> set[int]:
        """Ids this process is publishing or about to mark dispatched (for PUBLISH_TIMEOUT at
        most: one stuck longer is left to the poller or the sweep again)."""
        since = time.monotonic() - PUBLISH_TIMEOUT
        with self._unmarked_lock:
            return {id_ for id_, handed in self._in_flight.items() if handed > since}

    def _settled(self, ids: list[int]) -> None:
        with self._unmarked_lock:
            for id_ in ids:
                self._in_flight.pop(id_, None)

    def _enqueue(self, loop, events) -> None:
        queue = self._queues.get(loop)
        if queue is None:
            queue = self._queues[loop] = asyncio.Queue()
            loop.create_task(self._drain(queue))
        queue.put_nowait(events)

    async def _drain(self, queue: asyncio.Queue) -> None:
        while True:
            events = list(await queue.get())
            while not queue.empty():
                events.extend(queue.get_nowait())
            published = []
            for index, event in enumerate(events):
                try:
                    await _answered_within(publish_events([event]), PUBLISH_TIMEOUT)
                except Exception as error:
                    if not layer_unavailable(error):
                        # The row stays pending: the sweep or the poller publishes it later.
                        logger.exception("Outbox publication failed for #%s", event.id)
                        self._settled([event.id])
                        continue
                    # The layer, not the row: the rows after it would wait as long. They all
                    # stay pending, and the sweep or the poller publishes them later.
                    left = [e.id for e in events[index:]]
                    logger.warning(
                        "Outbox publication of #%s failed; it and the %d row(s) after it stay "
                        "pending for the sweep: %s",
                        event.id, len(left) - 1, f"{type(error).__name__}: {error}",
                    )  # fmt: skip
                    self._settled(left)
                    break
                else:
                    published.append(event.id)
            if published:
                self._queue_marks(published)

    def _queue_marks(self, ids: list[int]) -> None:
        with self._unmarked_lock:
            first = not self._unmarked
            self._unmarked.extend(ids)
        if first:
            self._marker.submit(self._mark_unmarked)

    def _mark_unmarked(self) -> None:
        # Rows published within a short window share one UPDATE (a busy room publishes after
        # every commit). The sweep re-sends only rows older than a second, so the wait costs no
        # duplicate.
        time.sleep(MARK_COALESCE_SECONDS)
        with self._unmarked_lock:
            ids, self._unmarked = self._unmarked, []
        if ids:
            self._mark(ids)

    def _mark(self, ids: list[int]) -> None:
        from .services import outbox_mark_dispatched

        try:
            outbox_mark_dispatched(ids=ids)
        except Exception:
            logger.exception("Marking outbox rows dispatched failed; they will be re-sent")
            connections.close_all()  # a broken connection must not serve the next batch
        finally:
            self._settled(ids)

    def flush_marks(self, timeout: float = 5.0) -> None:
        """Wait until queued "dispatched" updates are written (tests, shutdown)."""
        self._marker.submit(lambda: None).result(timeout)

    def release_connection(self, timeout: float = 5.0) -> None:
        """Write what is queued, then close the marker's connection (server shutdown, tests)."""
        self._marker.submit(connections.close_all).result(timeout)


publisher = Publisher()


def _run_until_stopped(loop: asyncio.AbstractEventLoop) -> None:
    """The publisher thread's body. Once Publisher.reset stops the loop, cancel what is left on
    it and close it; closing also lets channels-redis close the connections it opened there."""
    try:
        loop.run_forever()
    finally:
        # redis-py 8 can swallow a cancellation that lands mid-command, after which the drain
        # task waits on its queue again: cancel in bounded rounds until nothing is left.
        for _ in range(20):
            tasks = asyncio.all_tasks(loop)
            if not tasks:
                break
            for task in tasks:
                task.cancel()
            loop.run_until_complete(asyncio.wait(tasks, timeout=0.1))
        loop.close()


def _poll_interval() -> float:
    return float(getattr(settings, "OUTBOX_POLL_INTERVAL", 0.15))


async def _poll_forever(stop: asyncio.Event) -> None:
    from .services import outbox_dispatch_after

    interval = _poll_interval()
    # One batch per call: the database thread is shared with the consumers' reads.
    dispatch = database_sync_to_async(outbox_dispatch_after)
    after: int | None = 0
    while not stop.is_set():
        try:
            _, after = await dispatch(after=after or 0)
        except Exception:
            logger.exception("Outbox poll failed")
            after = None
        if after is not None:
            continue  # drain a backlog without sleeping; a failed row waits for the next pass
        try:
            await asyncio.wait_for(stop.wait(), timeout=interval)
        except TimeoutError:
            pass


def start_outbox_poller() -> bool:
    """Attach the running (server) loop to the publisher; start the poller when the channel
    layer is process-local. Returns whether a poller started."""
    global _poller, _poller_stop
    publisher.attach(asyncio.get_running_loop())
    if _poller is not None or not layer_is_process_local():
        return False
    _poller_stop = asyncio.Event()
    _poller = asyncio.get_running_loop().create_task(_poll_forever(_poller_stop))
    return True


async def stop_outbox_poller() -> None:
    global _poller, _poller_stop
    publisher.detach()
    await asyncio.get_running_loop().run_in_executor(None, publisher.release_connection)
    if _poller is None:
        return
    _poller_stop.set()
    try:
        await asyncio.wait_for(_poller, timeout=5)
    except (TimeoutError, asyncio.CancelledError):
        _poller.cancel()
    _poller, _poller_stop = None, None
