"""The usage page's "Held until" says when as the page's other dates do: the time alone for a
hold ending today, the date too for one ending another day, and the time zone the page shows
times in, which a bare "14:30" left the user to guess."""

from datetime import timedelta

import pytest
from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import time as time_filter
from django.utils import timezone

from apps.quota import services
from apps.quota.models import Reservation

from .test_usage_page import table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("zone", "abbreviation"), [("UTC", "UTC"), ("Asia/Shanghai", "CST")])
def test_held_until_gives_the_date_when_not_today_and_the_time_zone(
    client, user, funded, settings, zone, abbreviation
):
    settings.TIME_ZONE = zone
    funded(user, 10)
    now = timezone.now()
    for key, until in [("ends-later", now + timedelta(days=2)), ("ends-today", now)]:
        services.quota_reserve(user=user, amount=1, key=key)
        Reservation.objects.filter(key=key).update(expires_at=until)
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-reservations")
    held_until = [row[3][0] for row in rows]
    later = now + timedelta(days=2)
    assert held_until == [
        f"{time_filter(timezone.localtime(now), 'g:i A')} {abbreviation}",
        f"{date_filter(timezone.localtime(later), 'M j, Y, g:i A')} {abbreviation}",
    ]
