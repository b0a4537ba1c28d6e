"""Outbox: a row that cannot be published holds back no other row, is given up after a bounded
number of attempts, and its room still reads in order."""

import asyncio
import logging
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.campaigns.models import CampaignMembership
from apps.projections import dispatch, services
from apps.projections.dispatch import start_outbox_poller, stop_outbox_poller
from apps.projections.groups import room_group
from apps.projections.models import OutboxEvent
from apps.projections.services import outbox_dispatch_pending, outbox_pending
from apps.projections.tasks import outbox_sweep
from tests.projections.test_outbox import listen, post
from tests.rooms.factories import make_campaign
from tests.rooms.test_consumer import frames_until_caught_up, next_entries, open_socket

# The bound these tests expect; checked against the service's own below.
GIVE_UP_AFTER = 10
# JSON holds any integer; the hosted layer's encoding (msgpack) only 64-bit ones.
UNSENDABLE = 2**70
# What the hosted layer raises for such a payload.
NOT_ENCODABLE = "OverflowError: Integer value out of range"


@pytest.fixture
def table(make_user):
    owner, player = make_user(), make_user()
    campaign, ms = make_campaign(owner, (player, CampaignMembership.Role.PLAYER))
    return campaign, ms[0], ms[1]


def poisoned(campaign):
    """A pending row the hosted layer cannot send: its payload holds an integer msgpack cannot
    encode."""
    return OutboxEvent.objects.create(
        event_type="state.changed",
        campaign_id=campaign.id,
        payload={"total": UNSENDABLE},
        audience="public",
    )


def states():
    return list(OutboxEvent.objects.order_by("id").values_list("id", "attempts", "error"))


def fail_entry(monkeypatch, body, times=None):
    """Publication of the entry with this body raises (the first `times` tries, or always)."""
    messages_for, tries = dispatch._messages_for, []

    def failing(event):
        if isinstance(event.payload, dict) and event.payload.get("body") == body:
            tries.append(event.id)
            if times is None or len(tries) <= times:
                raise RuntimeError(f"entry {body!r} cannot be sent")
        return messages_for(event)

    monkeypatch.setattr(dispatch, "_messages_for", failing)


# --- one failing row holds back nothing ----------------------------------------------------------


@pytest.mark.django_db
def test_a_row_that_cannot_be_published_does_not_hold_back_the_rows_after_it(table, redis_layer):
    campaign, owner, _ = table
    post(owner, "one")
    bad = poisoned(campaign)
    post(owner, "two")
    assert outbox_dispatch_pending() == 2
    rows = OutboxEvent.objects.order_by("id").values_list("id", "dispatched_at", "attempts")
    assert [(i, d is not None, a) for i, d, a in rows] == [
        (bad.id - 1, True, 0),
        (bad.id, False, 1),
        (bad.id + 1, True, 0),
    ]
    # The next round tries the failing row again, and only it.
    assert outbox_dispatch_pending() == 0
    assert [event.id for event in outbox_pending()] == [bad.id]
    assert OutboxEvent.objects.get(id=bad.id).attempts == 2


@pytest.mark.django_db(transaction=True)
async def test_on_redis_a_payload_the_layer_cannot_encode_stalls_neither_sweep_nor_room(
    table, redis_layer, monkeypatch
):
    campaign, owner, _ = table
    layer, channel = await listen(room_group(campaign.id))
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)  # left to the sweep

    def arrange():
        bad = poisoned(campaign)
        post(owner, "after")
        OutboxEvent.objects.update(created_at=timezone.now() - timedelta(seconds=30))
        return bad.id

    bad_id = await database_sync_to_async(arrange)()
    assert await database_sync_to_async(outbox_sweep)() == 1
    message = await asyncio.wait_for(layer.receive(channel), timeout=3)
    assert (message["type"], message["entry"]["body"]) == ("room.entry", "after")
    # Tried once per sweep, not again in the same one.
    assert await database_sync_to_async(states)() == [(bad_id, 1, ""), (bad_id + 1, 0, "")]
    for _ in range(GIVE_UP_AFTER - 1):
        assert await database_sync_to_async(outbox_sweep)() == 0
    row = await database_sync_to_async(OutboxEvent.objects.get)(id=bad_id)
    assert (row.attempts, row.error, row.dispatched_at is not None) == (
        GIVE_UP_AFTER,
        NOT_ENCODABLE,
        True,
    )


# --- a row that keeps failing is given up ---------------------------------------------------------


@pytest.mark.django_db
def test_a_row_that_keeps_failing_is_given_up_after_bounded_attempts_and_logged(
    table, redis_layer, caplog
):
    campaign, owner, _ = table
    bad = poisoned(campaign)
    for attempt in range(1, GIVE_UP_AFTER):
        assert outbox_dispatch_pending() == 0
        assert states() == [(bad.id, attempt, "")]
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="apps.projections.services"):
        assert outbox_dispatch_pending() == 0
    row = OutboxEvent.objects.get()
    assert (row.attempts, row.error, row.dispatched_at is not None) == (
        GIVE_UP_AFTER,
        NOT_ENCODABLE,
        True,
    )
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("ERROR", f"Outbox row #{bad.id} given up after {GIVE_UP_AFTER} attempts: {NOT_ENCODABLE}")
    ]
    assert caplog.records[0].exc_info[0] is OverflowError  # the traceback, for operators
    # No longer picked up: nothing is tried or counted again.
    assert outbox_pending() == []
    assert outbox_dispatch_pending() == 0
    assert states() == [(bad.id, GIVE_UP_AFTER, NOT_ENCODABLE)]
    assert services.OUTBOX_MAX_ATTEMPTS == GIVE_UP_AFTER


@pytest.mark.django_db
def test_a_given_up_row_is_never_pending(table):
    campaign, _, _ = table
    with pytest.raises(IntegrityError), transaction.atomic():
        OutboxEvent.objects.create(
            event_type="state.changed", campaign_id=campaign.id, error="RuntimeError: lost"
        )
    assert OutboxEvent.objects.count() == 0


@pytest.mark.django_db
def test_a_row_that_fails_then_goes_out_is_published_without_error(
    table, memory_layer, monkeypatch
):
    campaign, owner, _ = table
    post(owner, "one")
    fail_entry(monkeypatch, "one", times=1)
    assert outbox_dispatch_pending() == 0
    assert outbox_dispatch_pending() == 1
    row = OutboxEvent.objects.get()
    assert (row.attempts, row.error, row.dispatched_at is not None) == (1, "", True)


@pytest.mark.django_db(transaction=True)
def test_a_publication_that_hangs_charges_its_row_only(table, redis_layer, monkeypatch):
    """A stuck layer ends the round at the timeout: the row being sent counts a failure, the rows
    after it wait for the next round uncharged."""
    campaign, owner, _ = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)
    for body in ("one", "two", "three"):
        post(owner, body)
    one, two, three = OutboxEvent.objects.order_by("id").values_list("id", flat=True)
    publish_events = dispatch.publish_events

    async def hanging(events):
        if events[0].id == two:
            await asyncio.sleep(30)
        await publish_events(events)

    monkeypatch.setattr(dispatch, "publish_events", hanging)
    monkeypatch.setattr(dispatch, "PUBLISH_TIMEOUT", 0.3)
    assert outbox_dispatch_pending() == 1
    rows = OutboxEvent.objects.order_by("id").values_list("id", "dispatched_at", "attempts")
    assert [(i, d is not None, a) for i, d, a in rows] == [
        (one, True, 0),
        (two, False, 1),
        (three, False, 0),
    ]


@pytest.mark.django_db(transaction=True)
def test_a_publisher_loop_that_runs_no_send_fails_the_row_in_hand_once_no_send_could_last(
    table, redis_layer, monkeypatch
):
    """Each send is bounded on the publisher's loop; a loop that runs none at all (stopped, or
    blocked) still ends the caller's wait, once no send could have lasted that long."""
    campaign, owner, _ = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)
    for body in ("one", "two"):
        post(owner, body)
    rows = list(OutboxEvent.objects.order_by("id"))
    monkeypatch.setattr(dispatch, "PUBLISH_TIMEOUT", 0.2)
    monkeypatch.setattr(dispatch, "LOOP_GRACE", 0.1)
    blocked, release = asyncio.new_event_loop(), threading.Event()
    blocked.call_soon(release.wait, 10)  # a call that holds the loop
    thread = threading.Thread(target=blocked.run_forever, daemon=True)
    thread.start()
    monkeypatch.setattr(dispatch.publisher, "loop", lambda: blocked)
    try:
        published, failed = dispatch.publisher.publish_now(rows)
    finally:
        release.set()
        # Let the loop end the round it was handed (cancelled) before it stops.
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0.05), blocked).result(5)
        blocked.call_soon_threadsafe(blocked.stop)
        thread.join(5)
        blocked.close()
    assert (published, {id_: repr(error) for id_, error in failed.items()}) == (
        [],
        {
            rows[0].id: repr(
                TimeoutError("publication timed out after 0.3 s waiting for the channel layer")
            )
        },
    )


# --- the room still reads in order --------------------------------------------------------------


async def _write_two_entries(owner):
    def write():
        with transaction.atomic():  # the poller meets both rows in one round
            post(owner, "one")
            post(owner, "two")
        return list(OutboxEvent.objects.order_by("id").values_list("id", flat=True))

    return await database_sync_to_async(write)()


async def entries_until_quiet(sock):
    """The sequences of entry frames the socket is sent until it falls quiet (a catch-up's
    `caught_up` and presence frames are not entries)."""
    seqs = []
    while not await sock.receive_nothing(timeout=0.3):
        frame = await sock.receive_json_from()
        if frame["type"] == "entry":
            seqs.append(frame["entry"]["sequence"])
    return seqs


async def _settled(event_id):
    """The row once the poller is done with it (bounded wait)."""
    for _ in range(100):
        row = await database_sync_to_async(OutboxEvent.objects.get)(id=event_id)
        if row.dispatched_at is not None:
            return row
        await asyncio.sleep(0.05)
    raise AssertionError(f"row {event_id} still pending")


@pytest.mark.django_db(transaction=True)
async def test_a_room_entry_that_goes_out_late_is_not_shown_again_or_out_of_order(
    table, memory_layer, settings, monkeypatch
):
    """Order is the socket's: entries carry their room sequence, so an entry whose row went
    out after the next one's was already read with it, and is dropped."""
    settings.OUTBOX_POLL_INTERVAL = 0.02
    campaign, owner, player = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)
    assert start_outbox_poller() is True
    try:
        sock = await open_socket(campaign, player.user)
        assert await frames_until_caught_up(sock) == ([], 0)
        fail_entry(monkeypatch, "one", times=2)
        first, second = await _write_two_entries(owner)
        assert await next_entries(sock, 2) == [1, 2]
        row = await _settled(first)  # published once it no longer fails
        assert (row.attempts, row.error) == (2, "")
        assert await entries_until_quiet(sock) == []
        await sock.disconnect()
    finally:
        await stop_outbox_poller()


@pytest.mark.django_db(transaction=True)
async def test_a_room_entry_given_up_by_the_poller_still_reaches_players_in_order(
    table, memory_layer, settings, monkeypatch
):
    """The entry after it goes out; the socket, seeing a gap, reads the room from the database."""
    settings.OUTBOX_POLL_INTERVAL = 0.02
    campaign, owner, player = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)  # rows from a worker
    assert start_outbox_poller() is True
    try:
        sock = await open_socket(campaign, player.user)
        assert await frames_until_caught_up(sock) == ([], 0)
        fail_entry(monkeypatch, "one")
        first, second = await _write_two_entries(owner)
        assert await next_entries(sock, 2) == [1, 2]
        row = await _settled(first)
        assert (row.attempts, row.error) == (
            GIVE_UP_AFTER,
            "RuntimeError: entry 'one' cannot be sent",
        )
        assert await entries_until_quiet(sock) == []
        await sock.disconnect()
    finally:
        await stop_outbox_poller()
