"""Outbox sweep on Redis: a channel layer that cannot be reached ends the whole pass, so an
outage charges one pending row per sweep however many batches are pending."""

import logging
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.projections import dispatch
from apps.projections.models import ROOM_ENTRY, OutboxEvent
from apps.projections.services import BATCH_SIZE, outbox_dispatch_pending
from apps.projections.tasks import outbox_sweep
from tests.rooms.factories import make_campaign


@pytest.fixture
def campaign(make_user):
    return make_campaign(make_user())[0]


def pending_rows(campaign, count):
    """`count` stale room entries left pending (more than one batch when above BATCH_SIZE)."""
    rows = OutboxEvent.objects.bulk_create(
        OutboxEvent(
            event_type=ROOM_ENTRY, campaign_id=campaign.id, payload={"body": f"entry {n}"},
            audience="public",
        )
        for n in range(count)
    )  # fmt: skip
    OutboxEvent.objects.update(created_at=timezone.now() - timedelta(seconds=30))
    return [row.id for row in rows]


def charged():
    return dict(OutboxEvent.objects.filter(attempts__gt=0).values_list("id", "attempts"))


@pytest.mark.django_db(transaction=True)
def test_a_sweep_meeting_a_refusing_redis_charges_one_row_across_all_batches(
    campaign, refusing_redis
):
    ids = pending_rows(campaign, BATCH_SIZE + 5)  # two batches

    assert outbox_sweep() == 0
    assert charged() == {ids[0]: 1}
    assert OutboxEvent.objects.filter(dispatched_at__isnull=True).count() == BATCH_SIZE + 5

    # The next sweep charges the same first row again, still no other.
    assert outbox_sweep() == 0
    assert charged() == {ids[0]: 2}


@pytest.mark.django_db(transaction=True)
def test_a_pass_ends_at_the_first_layer_failure_even_past_a_row_that_cannot_be_sent(
    campaign, refusing_redis, monkeypatch
):
    """A row the layer rejects for itself is charged and the pass goes on; the layer then
    failing ends the pass there, leaving the next batch uncharged."""
    ids = pending_rows(campaign, BATCH_SIZE + 5)
    real = dispatch.publish_events

    async def first_row_unsendable(events):
        if events[0].id == ids[0]:
            raise ValueError("payload the layer cannot encode")
        await real(events)

    monkeypatch.setattr(dispatch, "publish_events", first_row_unsendable)

    assert outbox_dispatch_pending(older_than=timedelta(seconds=1)) == 0
    assert charged() == {ids[0]: 1, ids[1]: 1}


@pytest.mark.django_db(transaction=True)
def test_a_publisher_that_raises_ends_the_sweep_charging_one_row_and_is_logged_once(
    campaign, redis_layer, monkeypatch, caplog
):
    """Not a timeout or a refused connection, but the publisher itself failing: the pass ends
    there as it does for a layer that cannot be reached, rather than meet the same failure
    once per batch, and a failure that lasts still gives rows up where operators look."""
    ids = pending_rows(campaign, BATCH_SIZE + 5)  # two batches

    def raising(*args, **kwargs):
        raise RuntimeError("the channel layer failed")

    monkeypatch.setattr(dispatch.publisher, "publish_now", raising)
    with caplog.at_level(logging.WARNING, logger="apps.projections"):
        assert outbox_sweep() == 0
    assert charged() == {ids[0]: 1}
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "ERROR",
            f"Outbox publication failed at row #{ids[0]} (attempt 1 of 10); the pass ends, "
            "the rows after it wait for the next one: RuntimeError: the channel layer failed",
        )
    ]
    assert caplog.records[0].exc_info[0] is RuntimeError  # the traceback, for operators

    assert outbox_sweep() == 0
    assert charged() == {ids[0]: 2}
