"""Outbox: written with the change, published after commit, at-least-once, swept and polled."""

import asyncio
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connections, transaction
from django.utils import timezone

from apps.campaigns.models import CampaignMembership
from apps.projections import dispatch
from apps.projections.dispatch import publisher, start_outbox_poller, stop_outbox_poller
from apps.projections.groups import room_group, user_group
from apps.projections.models import OutboxEvent
from apps.projections.services import (
    outbox_dispatch_pending,
    outbox_emit,
    outbox_mark_dispatched,
    outbox_pending,
    outbox_prune,
)
from apps.projections.tasks import outbox_sweep
from apps.rooms.models import Message
from apps.rooms.services import room_event_record, room_message_post
from tests.rooms.factories import make_campaign, remove_member
from tests.rooms.test_consumer import frames_until_caught_up, next_entries, open_socket

Role = CampaignMembership.Role


@pytest.fixture
def table(make_user):
    owner, player = make_user(), make_user()
    campaign, ms = make_campaign(owner, (player, Role.PLAYER))
    return campaign, ms[0], ms[1]


def post(membership, body, **kw):
    return room_message_post(
        membership=membership, body=body, mode="chat", client_message_id=body, **kw
    )[0]


async def next_entry(sock):
    """The next entry frame; presence and heartbeat frames are skipped."""
    while (frame := await sock.receive_json_from(timeout=3))["type"] != "entry":
        pass
    return frame["entry"]


async def listen(*groups):
    """A bare channel in the given groups, as a consumer would hold."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    for group in groups:
        await layer.group_add(group, channel)
    return layer, channel


# --- written in the same transaction -----------------------------------------------------------


@pytest.mark.django_db
def test_rollback_leaves_no_outbox_row_and_no_entry(table):
    campaign, owner, _ = table
    with pytest.raises(RuntimeError), transaction.atomic():
        room_event_record(campaign=campaign, event_type="phase.changed", data={"phase": "combat"})
        assert OutboxEvent.objects.count() == 1
        raise RuntimeError("the change fails after the announcement was written")
    assert (OutboxEvent.objects.count(), Message.objects.count()) == (0, 0)


@pytest.mark.django_db
def test_row_committed_with_the_change_and_published_only_after_commit(
    table, memory_layer, django_capture_on_commit_callbacks
):
    campaign, owner, player = table
    server_loop = asyncio.new_event_loop()
    publisher.attach(server_loop)  # a server loop: publication is on commit
    try:
        with django_capture_on_commit_callbacks() as callbacks:
            remove_member(player)
            row = OutboxEvent.objects.get()
            assert (row.event_type, row.audience, row.dispatched_at) == (
                "access.revoked",
                {"users": [str(player.user_id)]},
                None,
            )
        assert len(callbacks) == 1
    finally:
        publisher.detach()
        server_loop.close()


@pytest.mark.django_db
def test_unknown_audience_shape_is_refused_and_nothing_written(table):
    from apps.core.errors import ValidationFailed

    campaign, _, _ = table
    with pytest.raises(ValidationFailed):
        outbox_emit(event_type="x", campaign_id=campaign.id, payload={}, audience={"user": []})
    assert OutboxEvent.objects.count() == 0


# --- dispatch: conditional marking, failures, prune ----------------------------------------------


@pytest.mark.django_db
def test_marking_is_conditional(table):
    campaign, owner, _ = table
    post(owner, "one")
    post(owner, "two")
    ids = list(OutboxEvent.objects.values_list("id", flat=True))
    assert outbox_mark_dispatched(ids=ids[:1]) == 1
    first = OutboxEvent.objects.get(id=ids[0]).dispatched_at
    # A second dispatcher racing on the same rows counts (and rewrites) only the unmarked one.
    assert outbox_mark_dispatched(ids=ids) == 1
    assert OutboxEvent.objects.get(id=ids[0]).dispatched_at == first
    assert outbox_mark_dispatched(ids=ids) == 0


@pytest.mark.django_db(transaction=True)
def test_marker_keeps_one_connection_across_batches(table):
    from django.db.backends.signals import connection_created

    publisher.release_connection()
    opened = []

    def record(sender, connection, **kwargs):
        opened.append(threading.current_thread().name)

    connection_created.connect(record)
    try:
        for _ in range(3):
            publisher._marker.submit(publisher._mark, [10**9]).result(5)
    finally:
        connection_created.disconnect(record)
        publisher.release_connection()
    assert len(opened) == 1
    assert opened[0].startswith("outbox-mark")


@pytest.mark.django_db(transaction=True)
def test_marks_published_within_the_window_share_one_update(table, monkeypatch):
    campaign, owner, _ = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)  # rows stay pending
    for body in ("one", "two", "three"):
        post(owner, body)
    ids = list(OutboxEvent.objects.order_by("id").values_list("id", flat=True))
    marked = []
    monkeypatch.setattr(publisher, "_mark", marked.append)
    for event_id in ids:  # three drains, as three commits would publish them
        publisher._queue_marks([event_id])
    publisher.flush_marks()
    assert marked == [ids]
    publisher._queue_marks([10**9])  # after the window: a batch of its own
    publisher.flush_marks()
    assert marked == [ids, [10**9]]


@pytest.mark.django_db(transaction=True)
def test_publish_failure_keeps_row_pending_and_counts_attempt(table, memory_layer, monkeypatch):
    campaign, owner, _ = table
    post(owner, "one")

    async def broken(events):
        raise ConnectionError("layer down")

    monkeypatch.setattr(dispatch, "publish_events", broken)
    assert outbox_dispatch_pending() == 0
    row = OutboxEvent.objects.get()
    assert (row.dispatched_at, row.attempts) == (None, 1)


@pytest.mark.django_db
def test_prune_deletes_only_dispatched_rows_past_retention(table):
    campaign, owner, _ = table
    for body in ("old", "recent", "pending"):
        post(owner, body)
    old, recent, pending = OutboxEvent.objects.order_by("id")
    now = timezone.now()
    for row, age in ((old, timedelta(days=2)), (recent, timedelta(hours=1))):
        # Created a second before it was dispatched, as rows are.
        OutboxEvent.objects.filter(pk=row.pk).update(
            created_at=now - age - timedelta(seconds=1), dispatched_at=now - age
        )
    assert outbox_prune() == 1
    assert list(OutboxEvent.objects.order_by("id").values_list("id", flat=True)) == [
        recent.pk,
        pending.pk,
    ]


# --- publication to groups -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_access_revoked_goes_to_the_user_group_only(table, memory_layer):
    campaign, owner, player = table
    layer, room_channel = await listen(room_group(campaign.id))
    _, user_channel = await listen(user_group(player.user_id))
    await database_sync_to_async(remove_member)(player)
    assert await database_sync_to_async(outbox_dispatch_pending)() == 1
    assert await layer.receive(user_channel) == {
        "type": "access.revoked",
        "campaign_id": str(campaign.id),
        "reason": "removed",
    }
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(room_channel), timeout=0.2)


@pytest.mark.django_db(transaction=True)
async def test_redispatch_is_harmless_clients_dedupe_by_sequence(table, memory_layer):
    campaign, owner, player = table
    sock = await open_socket(campaign, player.user)
    assert await frames_until_caught_up(sock) == ([], 0)
    await database_sync_to_async(post)(owner, "one")
    await database_sync_to_async(post)(owner, "two")
    assert await database_sync_to_async(outbox_dispatch_pending)() == 2
    assert await next_entries(sock, 2) == [1, 2]
    # At-least-once: the same rows again (a sweep racing a slow publisher).
    await database_sync_to_async(OutboxEvent.objects.update)(dispatched_at=None)
    assert await database_sync_to_async(outbox_dispatch_pending)() == 2
    assert await sock.receive_nothing(timeout=0.3)
    await sock.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_embedded_poller_delivers_a_row_written_by_another_process(
    table, memory_layer, settings, monkeypatch
):
    settings.OUTBOX_POLL_INTERVAL = 0.05
    campaign, owner, player = table
    assert start_outbox_poller() is True
    try:
        sock = await open_socket(campaign, player.user)
        assert await frames_until_caught_up(sock) == ([], 0)

        def worker():
            # Stands for the Celery worker: its own thread and connection, and no publisher
            # that can reach these sockets, so only the poller can deliver its row.
            monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)
            try:
                room_event_record(
                    campaign=campaign, event_type="job.progress", body="Map drawn", data={"p": 1}
                )
            finally:
                connections.close_all()

        thread = threading.Thread(target=worker)
        thread.start()
        await asyncio.get_running_loop().run_in_executor(None, thread.join)
        entry = await next_entry(sock)
        assert (entry["sequence"], entry["kind"], entry["body"]) == (1, "event", "Map drawn")
        row = await database_sync_to_async(OutboxEvent.objects.get)()
        assert row.dispatched_at is not None
        await sock.disconnect()
    finally:
        await stop_outbox_poller()
    assert publisher.server_loop is None


@pytest.mark.django_db(transaction=True)
async def test_after_commit_publisher_on_redis_delivers_and_marks(table, redis_layer):
    campaign, owner, player = table
    sock = await open_socket(campaign, player.user)
    assert await frames_until_caught_up(sock) == ([], 0)
    await database_sync_to_async(post)(owner, "hello")
    entry = await next_entry(sock)
    assert (entry["sequence"], entry["body"]) == (1, "hello")
    # The socket can see the entry before the publisher has queued its "dispatched" mark, so
    # wait (bounded) for the mark rather than flushing once.
    loop = asyncio.get_running_loop()
    for _ in range(50):
        await loop.run_in_executor(None, publisher.flush_marks)
        row = await database_sync_to_async(OutboxEvent.objects.get)()
        if row.dispatched_at is not None:
            break
        await asyncio.sleep(0.1)
    assert row.dispatched_at is not None
    await sock.disconnect()


@pytest.mark.django_db(transaction=True)
def test_reset_stops_the_publisher_loop_and_publication_starts_afresh(table, redis_layer):
    campaign, owner, _ = table
    post(owner, "one")  # hosted layer: published after commit from the publisher's own loop
    post(owner, "two")
    loop, thread = publisher._own_loop, publisher._own_thread
    assert thread.is_alive()
    publisher.reset()
    assert (publisher._own_loop, publisher.server_loop, thread.is_alive(), loop.is_closed()) == (
        None,
        None,
        False,
        True,
    )
    # Publication works after a reset, from a new loop (publish_now raises on any failure).
    OutboxEvent.objects.update(dispatched_at=None)
    assert outbox_dispatch_pending() == 2
    assert publisher._own_thread.is_alive() and publisher._own_loop is not loop


# --- hosted sweep --------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_sweep_publishes_stale_rows_leaves_young_ones_and_prunes(
    table, redis_layer, monkeypatch
):
    campaign, owner, player = table
    layer, channel = await listen(room_group(campaign.id))
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)  # a crashed publisher

    def arrange():
        post(owner, "stale")
        post(owner, "young")
        post(owner, "old")
        stale, young, old = OutboxEvent.objects.order_by("id")
        now = timezone.now()
        OutboxEvent.objects.filter(pk=stale.pk).update(created_at=now - timedelta(seconds=30))
        OutboxEvent.objects.filter(pk=old.pk).update(
            created_at=now - timedelta(days=3), dispatched_at=now - timedelta(days=2)
        )
        return stale.pk, young.pk

    stale_id, young_id = await database_sync_to_async(arrange)()
    assert await database_sync_to_async(outbox_sweep)() == 1
    message = await layer.receive(channel)
    assert (message["type"], message["entry"]["body"]) == ("room.entry", "stale")
    rows = await database_sync_to_async(list)(
        OutboxEvent.objects.order_by("id").values_list("id", "dispatched_at")
    )
    assert [(i, d is not None) for i, d in rows] == [(stale_id, True), (young_id, False)]


@pytest.mark.django_db
def test_embedded_sweep_leaves_stale_rows_to_the_web_process_poller(table, memory_layer):
    """Embedded mode runs the sweep in the Celery worker, whose in-memory layer reaches no
    socket: a row it published there would be marked dispatched without anyone being sent it.
    It still prunes."""
    campaign, owner, _ = table
    post(owner, "stale")
    post(owner, "old")
    stale, old = OutboxEvent.objects.order_by("id")
    now = timezone.now()
    OutboxEvent.objects.filter(pk=stale.pk).update(created_at=now - timedelta(seconds=30))
    OutboxEvent.objects.filter(pk=old.pk).update(
        created_at=now - timedelta(days=3), dispatched_at=now - timedelta(days=2)
    )
    assert outbox_sweep() == 0
    assert list(OutboxEvent.objects.values_list("id", "dispatched_at")) == [(stale.pk, None)]


def test_prune_finds_its_rows_through_the_creation_index_not_a_table_scan(table):
    """The sweep prunes every few seconds: its query must not read the whole outbox (PostgreSQL
    plans it with sequential scans priced out, so only a usable index avoids one)."""
    from tests.saga.conftest import postgres_or_skip

    postgres_or_skip()
    captured = []

    def explain(execute, sql, params, many, context):
        if 'FROM "projections_outboxevent"' not in sql:
            return execute(sql, params, many, context)
        with context["connection"].connection.cursor() as cursor:  # past this wrapper
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + sql, params)  # not run: only planned
            captured.append("\n".join(row[0] for row in cursor.fetchall()))
        return execute(sql, params, many, context)

    with transaction.atomic(), connections["default"].execute_wrapper(explain):
        outbox_prune()
    assert captured and all("Seq Scan" not in plan for plan in captured), captured


@pytest.mark.django_db(transaction=True)
async def test_embedded_poller_does_not_resend_what_the_web_process_publishes_itself(
    table, memory_layer, settings
):
    # The poller wakes far more often than the publisher marks its rows dispatched, so it meets
    # every row of this process while that row is published but not yet marked.
    settings.OUTBOX_POLL_INTERVAL = 0.005
    campaign, owner, player = table
    assert start_outbox_poller() is True
    try:
        sock = await open_socket(campaign, player.user)
        assert await frames_until_caught_up(sock) == ([], 0)
        row = await database_sync_to_async(outbox_emit)(
            event_type="state.changed", campaign_id=campaign.id, payload={"n": 1}
        )
        frames = []
        while not await sock.receive_nothing(timeout=0.4):
            frames.append(await sock.receive_json_from())
        events = [f for f in frames if f["type"] == "event"]
        assert [(f["event_type"], f["outbox_id"]) for f in events] == [("state.changed", row.id)]
        await database_sync_to_async(publisher.flush_marks)()
        row = await database_sync_to_async(OutboxEvent.objects.get)()
        assert row.dispatched_at is not None
        await sock.disconnect()
    finally:
        await stop_outbox_poller()


def test_a_row_stuck_in_this_process_publisher_is_left_to_the_poller_after_the_timeout(
    table, monkeypatch
):
    campaign, owner, player = table
    row = outbox_emit(event_type="state.changed", campaign_id=campaign.id, payload={"n": 1})
    clock = {"now": 1000.0}
    monkeypatch.setattr(dispatch.time, "monotonic", lambda: clock["now"])
    monkeypatch.setattr(dispatch.Publisher, "loop", lambda self: asyncio.new_event_loop())
    monkeypatch.setattr(dispatch.Publisher, "_enqueue", lambda self, loop, events: None)
    publisher.submit([row])  # handed over; its publication never ends
    assert publisher.in_flight() == {row.id}
    clock["now"] += dispatch.PUBLISH_TIMEOUT + 1
    assert publisher.in_flight() == set()
    assert [event.id for event in outbox_pending()] == [row.id]
