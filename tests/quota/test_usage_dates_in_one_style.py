"""The usage page writes each date and time as the room's timeline does ("Dec 7, 2026,
5:26 AM"), with the zone it writes them in, in every table: reservations, grants and ledger."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from apps.quota import services
from apps.quota.models import LedgerEntry, Reservation

from .test_usage_page import table

pytestmark = pytest.mark.django_db

LATER = datetime(2099, 12, 7, 5, 26, tzinfo=UTC)
MADE = datetime(2026, 11, 30, 17, 5, tzinfo=UTC)


def test_a_grants_expiry_is_a_date_and_time_with_its_zone(client, user, funded):
    funded(user, 5, expires=[LATER])
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-grants")
    assert [expires for *_, (expires, _) in rows] == ["Dec 7, 2099, 5:26 AM UTC"]


def test_a_lapsed_grant_says_when_it_expired_with_its_zone(client, user, funded):
    funded(user, 5, expires=[timezone.now() + timedelta(hours=1)])
    account = funded(user)
    account.grants.update(expires_at=MADE)
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-grants")
    assert [expires for *_, (expires, _) in rows] == ["Expired Nov 30, 2026, 5:05 PM UTC"]


def test_a_ledger_entry_says_when_it_was_made_with_its_zone(client, user, funded):
    funded(user, 20)
    LedgerEntry.objects.update(created_at=MADE)
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-ledger")
    assert [when for (when, _), *_rest in rows] == ["Nov 30, 2026, 5:05 PM UTC"]


def test_a_hold_ending_another_day_says_its_date_time_and_zone(client, user, funded):
    funded(user, 10)
    services.quota_reserve(user=user, amount=1, key="k")
    Reservation.objects.update(expires_at=LATER)
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-reservations")
    assert [row[3][0] for row in rows] == ["Dec 7, 2099, 5:26 AM UTC"]


def test_a_hold_ending_today_says_its_time_and_zone(client, user, funded):
    funded(user, 10)
    services.quota_reserve(user=user, amount=1, key="k")
    ends = timezone.now().replace(hour=17, minute=5, second=0, microsecond=0)
    Reservation.objects.update(expires_at=ends)
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-reservations")
    assert [row[3][0] for row in rows] == ["5:05 PM UTC"]


def test_the_next_grant_says_the_moment_it_comes_with_its_zone(client, user):
    import re

    from apps.quota.models import Plan, QuotaAccount
    from apps.quota.selectors import quota_next_grant_at

    monthly = Plan.objects.create(slug="monthly", name="Monthly", periodic_grant=100)
    account = QuotaAccount.objects.create(user=user, plan=monthly)
    comes = quota_next_grant_at(account=account)
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    # A period starts at midnight UTC: a date alone would be the day before west of UTC.
    expected = (
        f'<time datetime="{comes.isoformat()}" data-local="datetime">'
        f'<span class="nowrap">{comes:%b} {comes.day}, {comes.year},</span> '
        '<span class="nowrap">12:00 AM UTC</span></time>'
    )
    assert re.findall(r'<time datetime="[^"]*" data-local="[a-z]*">.*?</time>', html)[0] == expected
