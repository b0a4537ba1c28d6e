"""Server-written times read in the reader's own zone, in the room timeline's style, once the
page's script runs; without scripts they stay as the server wrote them, in UTC."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.browser.conftest import account_on_a_zero_plan
from tests.browser.test_room_live import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXPIRES = datetime(2099, 12, 7, 5, 26, tzinfo=UTC)
MADE = datetime(2026, 11, 30, 17, 5, tzinfo=UTC)
ACCEPTED = datetime(2026, 12, 6, 14, 5, tzinfo=UTC)
TIMES = """() => [...document.querySelectorAll(
  "#usage-grants time, #usage-ledger time, dd time")].map((t) => [t.textContent, t.title])"""


@pytest.fixture
def reader(make_user):
    from django.contrib.auth import get_user_model

    from apps.quota.models import LedgerEntry
    from apps.quota.services import quota_grant

    user = make_user("pat@example.test", display_name="Pat")
    get_user_model().objects.filter(pk=user.pk).update(terms_accepted_at=ACCEPTED)
    account = account_on_a_zero_plan(user)
    quota_grant(account=account, amount=5, source="staff", expires_at=EXPIRES)
    LedgerEntry.objects.update(created_at=MADE)
    return user


def _times(browser, live_server, user, **context_options):
    context = browser.new_context(locale="en-US", **context_options)
    page = _sign_in(context, live_server.url, user.email, land=False)
    seen = []
    for path in ("/usage/", "/account/"):
        page.goto(f"{live_server.url}{path}")
        seen += page.evaluate(TIMES)
    return seen


def test_a_reader_in_new_york_reads_the_times_in_their_own_zone(browser, live_server, reader):
    assert _times(browser, live_server, reader, timezone_id="America/New_York") == [
        ["Dec 7, 2099, 12:26 AM EST", "Dec 7, 2099, 5:26 AM UTC"],
        ["Nov 30, 2026, 12:05 PM EST", "Nov 30, 2026, 5:05 PM UTC"],
        ["Dec 6, 2026, 9:05 AM EST", "Dec 6, 2026, 2:05 PM UTC"],
    ]


def test_a_reader_in_utc_reads_what_the_server_wrote(browser, live_server, reader):
    # The script's style and the server's are one: in the server's zone nothing changes.
    assert [text for text, _title in _times(browser, live_server, reader, timezone_id="UTC")] == [
        "Dec 7, 2099, 5:26 AM UTC",
        "Nov 30, 2026, 5:05 PM UTC",
        "Dec 6, 2026, 2:05 PM UTC",
    ]


def test_without_scripts_the_times_stay_in_utc(browser, live_server, reader):
    seen = _times(
        browser, live_server, reader, timezone_id="America/New_York", java_script_enabled=False
    )
    assert seen == [
        ["Dec 7, 2099, 5:26 AM UTC", ""],
        ["Nov 30, 2026, 5:05 PM UTC", ""],
        ["Dec 6, 2026, 2:05 PM UTC", ""],
    ]


def test_a_hold_ending_the_servers_today_names_the_readers_day_when_it_differs(
    browser, live_server, reader
):
    from zoneinfo import ZoneInfo

    from django.utils import timezone

    from apps.quota.models import Reservation
    from apps.quota.services import quota_reserve

    quota_reserve(user=reader, amount=1, key="turn")
    # 00:05 UTC today is yesterday afternoon in Los Angeles: the server writes the time alone.
    ends = timezone.now().replace(hour=0, minute=5, second=0, microsecond=0)
    Reservation.objects.update(expires_at=ends)
    context = browser.new_context(locale="en-US", timezone_id="America/Los_Angeles")
    page = _sign_in(context, live_server.url, reader.email, land=False)
    page.goto(f"{live_server.url}/usage/")
    shown = page.evaluate("""() => [...document.querySelectorAll("#usage-reservations time")]
      .map((t) => [t.textContent, t.title])""")
    there = ZoneInfo("America/Los_Angeles")
    local = ends.astimezone(there)
    today = timezone.now().astimezone(there).date()
    day = "" if local.date() == today else f"{local:%b} {local.day}, {local.year}, "
    # 4:05 PM PST in winter, 5:05 PM PDT in summer: the zone's own name for that day.
    clock = f"{local.hour % 12 or 12}:{local:%M %p} {local.tzname()}"
    assert shown == [[f"{day}{clock}", "12:05 AM UTC"]]
