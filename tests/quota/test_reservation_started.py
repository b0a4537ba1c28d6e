"""The usage page says a turn that reserved its credits under a minute ago started "just now",
not "0 minutes ago" (what it said for nearly every turn in progress)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.quota import services
from apps.quota.models import Reservation

from .test_usage_page import table

pytestmark = pytest.mark.django_db


def test_a_turn_started_under_a_minute_ago_started_just_now(client, user, funded):
    funded(user, 20)
    services.quota_reserve(user=user, amount=3, key="older")
    Reservation.objects.filter(key="older").update(created_at=timezone.now() - timedelta(minutes=5))
    services.quota_reserve(user=user, amount=2, key="newer")
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-reservations")
    assert [(credits, started) for _for, (credits, _), (started, _), _until in rows] == [
        ("2", "just now"),
        ("3", "5 minutes ago"),
    ]
