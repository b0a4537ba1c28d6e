"""Outbox prune: published rows go after a day, given-up rows are kept a week, long enough for
an operator to find them in the admin after a weekend."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.projections.models import OutboxEvent
from apps.projections.services import outbox_prune

CAMPAIGN = "6c12532c-5db2-443a-bbc3-a8f8f3559778"


@pytest.mark.django_db
def test_prune_keeps_given_up_rows_a_week_and_published_rows_a_day():
    now = timezone.now()

    def row(age, error=""):
        event = OutboxEvent.objects.create(
            event_type="state.changed", campaign_id=CAMPAIGN, payload={},
            dispatched_at=now - age, error=error,
        )  # fmt: skip
        # Created a second before it was done with, as rows are (created_at is set on insert).
        OutboxEvent.objects.filter(id=event.id).update(created_at=now - age - timedelta(seconds=1))
        return event.id

    published_old = row(timedelta(days=2))
    given_up_recent = row(timedelta(days=2), error="RuntimeError: lost")
    given_up_old = row(timedelta(days=8), error="RuntimeError: lost")
    pending = OutboxEvent.objects.create(
        event_type="state.changed", campaign_id=CAMPAIGN, payload={}
    ).id
    OutboxEvent.objects.filter(id=pending).update(created_at=now - timedelta(days=9))
    assert outbox_prune() == 2
    assert list(OutboxEvent.objects.order_by("id").values_list("id", flat=True)) == [
        given_up_recent,
        pending,
    ]
    assert {published_old, given_up_old}.isdisjoint(
        OutboxEvent.objects.values_list("id", flat=True)
    )
