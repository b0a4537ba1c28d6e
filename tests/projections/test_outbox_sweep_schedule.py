"""Outbox sweep as it runs under beat: one at a time (a second one finding a sweep still at work
leaves the rows to it), and a queued sweep that waited past the next one's turn is dropped."""

import asyncio
import logging
import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from apps.campaigns.models import CampaignMembership
from apps.projections import dispatch
from apps.projections.models import OutboxEvent
from apps.projections.tasks import outbox_sweep
from tests.projections.test_outbox import post
from tests.rooms.factories import make_campaign


@pytest.fixture
def table(make_user):
    owner, player = make_user(), make_user()
    campaign, ms = make_campaign(owner, (player, CampaignMembership.Role.PLAYER))
    return campaign, ms[0], ms[1]


@pytest.mark.django_db(transaction=True)
def test_a_sweep_that_finds_another_at_work_leaves_the_rows_to_it(table, redis_layer, monkeypatch):
    campaign, owner, _ = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)  # left to the sweep
    post(owner, "one")
    OutboxEvent.objects.update(created_at=timezone.now() - timedelta(seconds=30))
    sending, release, sends = threading.Event(), threading.Event(), []
    publish_events = dispatch.publish_events

    async def slow(events):
        sends.append([event.id for event in events])
        sending.set()
        while len(sends) == 1 and not release.is_set():  # the first send waits
            await asyncio.sleep(0.01)
        await publish_events(events)

    monkeypatch.setattr(dispatch, "publish_events", slow)
    results = {}

    def first_sweep():
        try:
            results["first"] = outbox_sweep()
        finally:
            connections.close_all()

    worker = threading.Thread(target=first_sweep)
    worker.start()
    try:
        assert sending.wait(5)
        assert outbox_sweep() == 0  # the second, while the first is sending
    finally:
        release.set()
        worker.join(10)
    row = OutboxEvent.objects.get()
    assert (results["first"], len(sends), row.attempts, row.dispatched_at is not None) == (
        1,
        1,
        0,
        True,
    )
    # Once the first is done, the next sweep runs as usual.
    post(owner, "two")
    OutboxEvent.objects.update(created_at=timezone.now() - timedelta(seconds=30))
    assert outbox_sweep() == 1


def test_a_queued_sweep_expires_before_the_next_one_is_due(monkeypatch):
    sent = []
    monkeypatch.setattr(
        outbox_sweep.app, "send_task", lambda name, *args, **options: sent.append((name, options))
    )
    outbox_sweep.apply_async()
    assert [(name, options["expires"]) for name, options in sent] == [
        ("projections.outbox_sweep", 5)
    ]


@pytest.mark.django_db(transaction=True)
def test_a_sweep_that_had_rows_to_send_says_so_and_a_quiet_one_says_nothing(
    table, redis_layer, monkeypatch, caplog
):
    """In hosted mode every row is published right after its commit: a row the sweep had to
    send means that publication failed or its process ended first, which operators want to see."""
    campaign, owner, _ = table
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)
    post(owner, "one")
    post(owner, "two")
    OutboxEvent.objects.update(created_at=timezone.now() - timedelta(seconds=30))
    with caplog.at_level(logging.INFO, logger="apps.projections"):
        assert outbox_sweep() == 2
        assert outbox_sweep() == 0
    assert [(r.name, r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "apps.projections.tasks",
            "WARNING",
            "Outbox sweep published 2 row(s) left pending after their commit",
        )
    ]
