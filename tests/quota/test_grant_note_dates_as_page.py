"""A plan grant's note names its period's start as the usage page writes dates ("Dec 1,
2031"), not as stored: the record keeps the exact ISO date; the reader sees the page's format
in the ledger, the grants table and the ledger API."""

from datetime import UTC, datetime

import pytest

from apps.quota import services
from apps.quota.models import LedgerEntry, Plan, QuotaAccount

from .test_usage_page import ledger, table

pytestmark = pytest.mark.django_db

DEC_10 = datetime(2031, 12, 10, 9, tzinfo=UTC)
DEC_15 = datetime(2031, 12, 15, 12, tzinfo=UTC)


def plan(slug, amount):
    return Plan.objects.create(slug=slug, name=slug.capitalize(), periodic_grant=amount)


def test_plan_grant_notes_show_the_period_start_as_the_page_shows_dates(
    client, api_client, make_user
):
    staff = make_user("staff@example.test", is_staff=True)
    account = QuotaAccount.objects.create(user=make_user(), plan=plan("small", 100))
    services.quota_plan_grant_issue(account=account, now=DEC_10)
    services.quota_account_plan_change(
        account=account, plan=plan("pro", 500), actor=staff, now=DEC_15
    )
    # Stored as written: the exact date, whatever the reader's format.
    assert list(LedgerEntry.objects.order_by("id").values_list("description", flat=True)) == [
        "Small plan, period from 2031-12-01",
        "Upgrade to Pro plan, period from 2031-12-01",
    ]
    client.force_login(account.user)
    html = client.get("/usage/").content.decode()
    assert [details for _kind, details, *_ in ledger(html)] == [
        "Upgrade to Pro plan, period from Dec 1, 2031",
        "Small plan, period from Dec 1, 2031",
    ]
    assert [row[0][0] for row in table(html, "usage-grants")] == [
        "Plan period",
        "Plan upgrade Upgrade to Pro plan, period from Dec 1, 2031",
    ]
    api_client.force_login(account.user)
    results = api_client.get("/api/usage/ledger").json()["results"]
    assert [entry["description"] for entry in results] == [
        "Upgrade to Pro plan, period from Dec 1, 2031",
        "Small plan, period from Dec 1, 2031",
    ]
