"""Outbox: the embedded poller charges failed publications as the sweep does, so a row's
attempts mean the same whichever published it: a layer that cannot be reached (or a publisher
that fails) ends the pass, charging the row in hand only, however many batches are pending."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from apps.projections import dispatch, services
from apps.projections.dispatch import start_outbox_poller, stop_outbox_poller
from apps.projections.models import OutboxEvent
from apps.projections.services import BATCH_SIZE
from tests.projections.test_outbox_sweep_layer_outage import charged, pending_rows
from tests.rooms.factories import make_campaign


@pytest.fixture
def campaign(make_user):
    return make_campaign(make_user())[0]


async def one_poller_pass(settings, monkeypatch):
    """Run the poller until its first pass ends (it then waits out a long interval), stop it."""
    settings.OUTBOX_POLL_INTERVAL = 30
    loop, ended = asyncio.get_running_loop(), asyncio.Event()
    dispatch_after = services.outbox_dispatch_after

    def watched(**kwargs):
        published, last = dispatch_after(**kwargs)
        if last is None:
            loop.call_soon_threadsafe(ended.set)
        return published, last

    monkeypatch.setattr(services, "outbox_dispatch_after", watched)
    assert start_outbox_poller() is True
    try:
        await asyncio.wait_for(ended.wait(), timeout=10)
    finally:
        await stop_outbox_poller()


@pytest.mark.django_db(transaction=True)
async def test_the_poller_meeting_a_layer_that_stops_answering_charges_one_row_per_pass(
    campaign, memory_layer, settings, monkeypatch
):
    ids = await database_sync_to_async(pending_rows)(campaign, BATCH_SIZE + 5)  # two batches
    monkeypatch.setattr(dispatch, "PUBLISH_TIMEOUT", 0.2)

    async def hanging(events):
        await asyncio.sleep(30)

    monkeypatch.setattr(dispatch, "publish_events", hanging)
    await one_poller_pass(settings, monkeypatch)

    assert await database_sync_to_async(charged)() == {ids[0]: 1}
    pending = OutboxEvent.objects.filter(dispatched_at__isnull=True, error="").count
    assert await database_sync_to_async(pending)() == BATCH_SIZE + 5


@pytest.mark.django_db(transaction=True)
async def test_the_poller_meeting_a_publisher_that_raises_charges_one_row_per_pass(
    campaign, memory_layer, settings, monkeypatch
):
    ids = await database_sync_to_async(pending_rows)(campaign, BATCH_SIZE + 5)  # two batches

    def raising(*args, **kwargs):
        raise RuntimeError("the channel layer failed")

    monkeypatch.setattr(dispatch.publisher, "publish_now", raising)
    await one_poller_pass(settings, monkeypatch)

    assert await database_sync_to_async(charged)() == {ids[0]: 1}
