"""Outbox: a room event that is given up (a state or job change, never sent) is replaced by a
content-free `state.changed` to the same audience, so open pages read their panels again instead
of showing what it announced until some later event. Entries and access news need none."""

import asyncio
import logging
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from apps.campaigns.models import CampaignMembership
from apps.projections import dispatch, tasks
from apps.projections.dispatch import start_outbox_poller, stop_outbox_poller
from apps.projections.groups import room_group, user_group
from apps.projections.models import OutboxEvent
from apps.projections.services import OUTBOX_MAX_ATTEMPTS, outbox_dispatch_pending, outbox_emit
from apps.projections.tasks import outbox_sweep
from tests.projections.test_outbox import listen, post
from tests.rooms.factories import make_campaign
from tests.rooms.test_consumer import frames_until_caught_up, open_socket

# JSON holds any integer; the hosted layer's encoding (msgpack) only 64-bit ones.
UNSENDABLE = 2**70


@pytest.fixture
def table(make_user):
    owner, player = make_user(), make_user()
    campaign, ms = make_campaign(owner, (player, CampaignMembership.Role.PLAYER))
    return campaign, ms[0], ms[1]


@pytest.mark.django_db(transaction=True)
async def test_a_given_up_job_event_tells_its_audience_to_read_their_panels_again(
    table, redis_layer, monkeypatch, caplog
):
    campaign, owner, player = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)  # left to the sweep
    layer, channel = await listen(room_group(campaign.id))

    def arrange():
        event = outbox_emit(
            event_type="turn.job",
            campaign_id=campaign.id,
            payload={"id": "job-1", "status": "succeeded", "tokens": UNSENDABLE},
            audience={"users": [str(player.user_id)]},
        )
        OutboxEvent.objects.update(created_at=timezone.now() - timedelta(seconds=30))
        return event

    event = await database_sync_to_async(arrange)()
    for _ in range(OUTBOX_MAX_ATTEMPTS - 1):
        assert await database_sync_to_async(outbox_sweep)() == 0
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="apps.projections.services"):
        assert await database_sync_to_async(outbox_sweep)() == 0
    message = await asyncio.wait_for(layer.receive(channel), timeout=3)
    assert message == {
        "type": "outbox.event",
        "event_type": "state.changed",
        "outbox_id": event.id,
        "payload": {"given_up": "turn.job"},
        "audience": {"users": [str(player.user_id)]},
        "access_version": event.payload["access_version"],
    }
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "ERROR",
            f"Outbox row #{event.id} given up after {OUTBOX_MAX_ATTEMPTS} attempts: "
            "OverflowError: Integer value out of range",
        ),
        (
            "INFO",
            f"Outbox row #{event.id} (turn.job) replaced by a state.changed notice to its audience",
        ),
    ]


@pytest.mark.django_db(transaction=True)
async def test_a_given_up_entry_or_access_news_sends_no_notice(table, memory_layer, monkeypatch):
    """A socket reads a missed entry at the next one's gap, and its access at each heartbeat."""
    campaign, owner, player = table
    layer, channel = await listen(room_group(campaign.id), user_group(player.user_id))

    def arrange():
        monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)
        post(owner, "lost")
        outbox_emit(
            event_type="access.revoked",
            campaign_id=campaign.id,
            payload={"reason": "removed"},
            audience={"users": [str(player.user_id)]},
        )
        messages_for = dispatch._messages_for

        def failing(event):
            if event.event_type != "state.changed":
                raise RuntimeError("cannot be sent")
            return messages_for(event)

        monkeypatch.setattr(dispatch, "_messages_for", failing)
        for _ in range(OUTBOX_MAX_ATTEMPTS):
            assert outbox_dispatch_pending() == 0
        return list(OutboxEvent.objects.order_by("id").values_list("event_type", "error"))

    assert await database_sync_to_async(arrange)() == [
        ("room.entry", "RuntimeError: cannot be sent"),
        ("access.revoked", "RuntimeError: cannot be sent"),
    ]
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(channel), timeout=0.3)


async def next_event(sock):
    """The next `event` frame; presence and heartbeat frames are skipped."""
    while (frame := await sock.receive_json_from(timeout=3))["type"] != "event":
        pass
    return frame


@pytest.mark.django_db(transaction=True)
async def test_the_poller_giving_up_a_state_change_tells_the_open_pages_that_may_see_it(
    table, memory_layer, settings, monkeypatch
):
    """Only the viewers the lost event was for: a GM-only change reaches the owner's page, not
    the player's."""
    settings.OUTBOX_POLL_INTERVAL = 0.02
    campaign, owner, player = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)  # rows from a worker
    messages_for = dispatch._messages_for

    def failing(event):
        if event.payload.get("lost"):
            raise RuntimeError("cannot be sent")
        return messages_for(event)

    monkeypatch.setattr(dispatch, "_messages_for", failing)
    assert start_outbox_poller() is True
    try:
        gm_sock = await open_socket(campaign, owner.user)
        player_sock = await open_socket(campaign, player.user)
        for sock in (gm_sock, player_sock):
            assert await frames_until_caught_up(sock) == ([], 0)
        event = await database_sync_to_async(outbox_emit)(
            event_type="state.changed",
            campaign_id=campaign.id,
            payload={"authority_revision": 4, "changed_scopes": ["combat"], "lost": True},
            audience="gm",
        )
        assert await next_event(gm_sock) == {
            "type": "event",
            "event_type": "state.changed",
            "outbox_id": event.id,
            "payload": {"given_up": "state.changed"},
        }
        row = await database_sync_to_async(OutboxEvent.objects.get)(id=event.id)
        assert (row.attempts, row.error) == (OUTBOX_MAX_ATTEMPTS, "RuntimeError: cannot be sent")
        while not await player_sock.receive_nothing(timeout=0.3):
            assert (await player_sock.receive_json_from())["type"] != "event"
        await gm_sock.disconnect()
        await player_sock.disconnect()
    finally:
        await stop_outbox_poller()


# --- the notice is bounded as the rows are ------------------------------------------------------


def last_try_events(campaign, count, **payload):
    """`count` stale job events on their last attempt, left to the sweep."""
    events = [
        outbox_emit(
            event_type="turn.job",
            campaign_id=campaign.id,
            payload={"id": f"job-{n}", "status": "succeeded", **payload},
            audience="public",
        )
        for n in range(count)
    ]
    OutboxEvent.objects.update(
        created_at=timezone.now() - timedelta(seconds=30), attempts=OUTBOX_MAX_ATTEMPTS - 1
    )
    return [event.id for event in events]


@pytest.mark.django_db(transaction=True)
def test_a_row_given_up_on_a_redis_that_stopped_answering_waits_no_second_timeout_for_its_notice(
    table, redis_relay, monkeypatch, caplog
):
    """A notice is not started once the layer failed the batch: it would wait on the same
    stuck layer a second time."""
    campaign, _, _ = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)  # left to the sweep
    stall = 1.0
    monkeypatch.setattr(dispatch, "PUBLISH_TIMEOUT", stall)
    (event_id,) = last_try_events(campaign, 1)
    redis_relay().silence()
    sends = []
    publish = dispatch.publish_events
    monkeypatch.setattr(
        dispatch, "publish_events", lambda events: sends.append(1) or publish(events)
    )

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="apps.projections.services"):
        assert outbox_sweep() == 0
    assert len(sends) == 1  # the row's own send; no notice was started after it
    row = OutboxEvent.objects.get()
    # What operators read in the admin says what happened.
    timed_out = "TimeoutError: no answer from the channel layer within 1 s"
    assert (row.attempts, row.error, row.dispatched_at is not None) == (
        OUTBOX_MAX_ATTEMPTS,
        timed_out,
        True,
    )
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "ERROR",
            f"Outbox row #{event_id} given up after {OUTBOX_MAX_ATTEMPTS} attempts: {timed_out}",
        ),
        (
            "WARNING",
            f"Outbox row #{event_id} (turn.job) given up and its state.changed notice not sent "
            f"either: publication had just failed: {timed_out}",
        ),
    ]


@pytest.mark.django_db(transaction=True)
async def test_the_notices_of_a_sweep_past_its_budget_are_started_as_its_rows_are(
    table, redis_relay, monkeypatch, caplog
):
    """Past the sweep's budget no further notice is started, after one at least, as no further
    row is: a slow Redis does not hold the sweep one more send for each row it gave up."""
    campaign, owner, _ = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)  # left to the sweep
    # Each send takes `delay` at least. The budget outlasts giving up the two unsendable rows
    # (some tenths of a second on a loaded two-core run) and is spent by the slow send of "after".
    delay = 1.0
    redis_relay(delay=delay)
    monkeypatch.setattr(tasks, "SWEEP_BUDGET", delay / 2)
    layer, channel = await listen(room_group(campaign.id))

    def arrange():
        ids = last_try_events(campaign, 2, tokens=UNSENDABLE)  # refused at once, given up
        post(owner, "after")
        OutboxEvent.objects.update(created_at=timezone.now() - timedelta(seconds=30))
        return ids

    first, second = await database_sync_to_async(arrange)()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="apps.projections.services"):
        assert await database_sync_to_async(outbox_sweep)() == 1
    entry = await asyncio.wait_for(layer.receive(channel), timeout=3)
    assert (entry["type"], entry["entry"]["body"]) == ("room.entry", "after")
    notice = await asyncio.wait_for(layer.receive(channel), timeout=3)
    assert (notice["event_type"], notice["outbox_id"]) == ("state.changed", first)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(channel), timeout=delay * 2)
    given_up = f"after {OUTBOX_MAX_ATTEMPTS} attempts: OverflowError: Integer value out of range"
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("ERROR", f"Outbox row #{first} given up {given_up}"),
        ("ERROR", f"Outbox row #{second} given up {given_up}"),
        (
            "INFO",
            f"Outbox row #{first} (turn.job) replaced by a state.changed notice to its audience",
        ),
        (
            "WARNING",
            f"Outbox row #{second} (turn.job) given up and its state.changed notice not sent "
            "either: no time was left for it",
        ),
        ("WARNING", "Outbox sweep published 1 row(s) left pending after their commit"),
    ]
