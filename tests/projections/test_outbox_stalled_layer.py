"""Outbox on Redis: a channel layer that accepts the connection but stops answering stalls
publication for a bounded time only, and publication resumes once Redis answers again."""

import logging
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.campaigns.models import CampaignMembership
from apps.projections import dispatch
from apps.projections.dispatch import publisher
from apps.projections.models import OutboxEvent
from apps.projections.tasks import outbox_sweep
from tests.projections.test_outbox import post
from tests.rooms.factories import make_campaign

STALL = 0.4  # the publication timeout in these tests, in seconds


@pytest.fixture
def proxy(redis_relay):
    return redis_relay()


@pytest.fixture
def table(make_user):
    owner, player = make_user(), make_user()
    campaign, ms = make_campaign(owner, (player, CampaignMembership.Role.PLAYER))
    return campaign, ms[0], ms[1]


def written_unpublished(owner, *bodies):
    """Entries posted without their after-commit publication, and their outbox rows."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dispatch, "publishes_on_commit", lambda: False)
        for body in bodies:
            post(owner, body)
    return list(OutboxEvent.objects.filter(payload__body__in=bodies).order_by("id"))


def settled(body, timeout=5.0):
    """The outbox row of the entry with this body once marked dispatched (bounded wait)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        publisher.flush_marks()
        row = OutboxEvent.objects.get(payload__body=body)
        if row.dispatched_at is not None:
            return row
        time.sleep(0.05)
    raise AssertionError(f"the row of {body!r} is still pending")


@pytest.mark.django_db(transaction=True)
def test_a_redis_that_stops_answering_stalls_publication_only_for_the_timeout(
    table, proxy, monkeypatch, caplog
):
    campaign, owner, _ = table
    monkeypatch.setattr(dispatch, "PUBLISH_TIMEOUT", STALL)
    post(owner, "before")
    assert settled("before").attempts == 0

    proxy.silence()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="apps.projections.dispatch"):
        publisher.submit(written_unpublished(owner, "lost one", "lost two"))  # one batch
        time.sleep(STALL * 4)
    lost = list(OutboxEvent.objects.filter(dispatched_at__isnull=True).order_by("id"))
    # Left pending for the sweep, uncharged: the layer failed, not the rows.
    assert [(row.payload["body"], row.attempts, row.error) for row in lost] == [
        ("lost one", 0, ""),
        ("lost two", 0, ""),
    ]
    assert publisher.in_flight() == set()
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "WARNING",
            f"Outbox publication of #{lost[0].id} failed; it and the 1 row(s) after it stay "
            f"pending for the sweep: TimeoutError: no answer from the channel layer within "
            f"{STALL} s",
        )
    ]

    proxy.answer_again()
    post(owner, "after")
    assert settled("after").attempts == 0
    # The sweep sends what the stall left behind.
    OutboxEvent.objects.filter(dispatched_at__isnull=True).update(
        created_at=timezone.now() - timedelta(seconds=30)
    )
    assert outbox_sweep() == 2
    assert OutboxEvent.objects.filter(dispatched_at__isnull=True).count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_redis_that_refuses_connections_costs_one_failure_per_batch_not_one_per_row(
    table, refusing_redis, caplog
):
    campaign, owner, _ = table
    with caplog.at_level(logging.WARNING, logger="apps.projections.dispatch"):
        publisher.submit(written_unpublished(owner, "one", "two", "three"))  # one batch
        deadline = time.monotonic() + 10
        while not caplog.records and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # room for a second failure, which must not come
    first = OutboxEvent.objects.order_by("id").first()
    assert (
        list(OutboxEvent.objects.values_list("dispatched_at", "attempts", "error"))
        == [(None, 0, "")] * 3
    )
    assert [(r.levelname, r.getMessage().split(": ")[0]) for r in caplog.records] == [
        (
            "WARNING",
            f"Outbox publication of #{first.id} failed; it and the 2 row(s) after it stay "
            "pending for the sweep",
        )
    ]
    assert publisher.in_flight() == set()


@pytest.mark.django_db(transaction=True)
def test_a_sweep_meeting_a_redis_that_refuses_connections_charges_one_row_not_every_row(
    table, refusing_redis
):
    """As with a send that hangs: the row in hand counts a failure, the rows after it wait for
    the next sweep uncharged, so a Redis outage does not spend every pending row's attempts."""
    campaign, owner, _ = table
    written_unpublished(owner, "one", "two", "three")
    OutboxEvent.objects.update(created_at=timezone.now() - timedelta(seconds=30))
    assert outbox_sweep() == 0
    rows = OutboxEvent.objects.order_by("id").values_list("payload__body", "attempts", "error")
    assert list(rows) == [("one", 1, ""), ("two", 0, ""), ("three", 0, "")]
