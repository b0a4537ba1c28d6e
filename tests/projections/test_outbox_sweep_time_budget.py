"""Outbox sweep on Redis: a pass stops at its time budget, well inside the task's hard time
limit, leaving the rows it did not reach pending for the next sweep and the lock released."""

import pytest
from django.core.cache import cache

from apps.projections import dispatch, tasks
from apps.projections.models import OutboxEvent
from apps.projections.services import BATCH_SIZE
from apps.projections.tasks import SWEEP_LOCK, outbox_sweep
from tests.projections.test_outbox_sweep_layer_outage import pending_rows
from tests.rooms.factories import make_campaign

DELAY = 0.3  # how long the slow Redis takes to see each command, in seconds


@pytest.fixture
def campaign(make_user):
    return make_campaign(make_user())[0]


@pytest.fixture
def slow_redis(redis_relay):
    return redis_relay(delay=DELAY)


def pending_ids():
    return list(
        OutboxEvent.objects.filter(dispatched_at__isnull=True, attempts=0)
        .order_by("id")
        .values_list("id", flat=True)
    )


@pytest.mark.django_db(transaction=True)
def test_a_sweep_on_a_slow_redis_stops_at_its_budget_and_leaves_the_rest_pending(
    campaign, slow_redis, monkeypatch
):
    monkeypatch.setattr(tasks, "SWEEP_BUDGET", DELAY * 2 / 3)  # spent by the first send
    ids = pending_rows(campaign, 3)  # one batch

    assert outbox_sweep() == 1
    assert pending_ids() == ids[1:]  # not reached: uncharged
    assert cache.get(SWEEP_LOCK) is None

    assert outbox_sweep() == 1
    assert pending_ids() == ids[2:]


@pytest.mark.django_db(transaction=True)
def test_a_sweep_past_its_budget_starts_no_further_batch(campaign, redis_layer, monkeypatch):
    monkeypatch.setattr(tasks, "SWEEP_BUDGET", 0.0)
    ids = pending_rows(campaign, BATCH_SIZE + 2)  # two batches

    # Each pass sends one row at least, so a sweep started late still makes progress.
    assert outbox_sweep() == 1
    assert pending_ids() == ids[1:]
    assert cache.get(SWEEP_LOCK) is None


@pytest.mark.django_db(transaction=True)
def test_a_sweep_on_a_slow_redis_that_answers_every_send_in_time_charges_no_row(
    campaign, slow_redis, monkeypatch
):
    """The publication timeout is for a send that gets no answer, not for a batch: a Redis
    answering each send well within it publishes a batch that takes longer, uncharged."""
    monkeypatch.setattr(dispatch, "PUBLISH_TIMEOUT", DELAY * 7)  # the first send also connects
    ids = pending_rows(campaign, 12)  # about twice the timeout in all

    assert outbox_sweep() == 12
    assert OutboxEvent.objects.filter(id__in=ids, dispatched_at__isnull=True).count() == 0
    assert OutboxEvent.objects.filter(attempts__gt=0).count() == 0
