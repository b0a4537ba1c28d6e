"""Reading usage opens no account: a user without one (made outside sign-up) reads the
defaults the account will open with, the default plan and its current period's grant, and the
account is written only when something writes (a reservation, a staff grant)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.quota import services
from apps.quota.models import LedgerEntry, Plan, QuotaAccount, QuotaGrant

from .test_usage_page import table

pytestmark = pytest.mark.django_db

_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b|\bFOR (NO KEY )?UPDATE\b", re.IGNORECASE)
FREE = {"slug": "free", "name": "Free", "periodic_grant": 100, "period": "monthly"}


def get_writing_nothing(client, url: str):
    """GET `url`, asserting that no statement wrote or locked a quota row."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    quota_sql = [q["sql"] for q in queries.captured_queries if '"quota_' in q["sql"]]
    assert [sql for sql in quota_sql if _WRITE.search(sql)] == []
    return response


def period_end() -> str:
    plan = Plan.objects.get(is_default=True)
    end = services.plan_period_bounds(plan=plan, at=timezone.now())[1]
    return end.isoformat().replace("+00:00", "Z")


def test_the_balance_api_reads_the_opening_credits_without_opening_the_account(api_client, user):
    api_client.force_login(user)
    response = get_writing_nothing(api_client, "/api/usage/balance")
    assert response.json() == {
        "balance": 100,
        "reserved": 0,
        "plan": FREE,
        "next_grant_at": period_end(),
    }
    assert not QuotaAccount.objects.filter(user=user).exists()
    # The first reservation opens the account with exactly what was read.
    services.quota_reserve(user=user, amount=30, key="k1")
    assert api_client.get("/api/usage/balance").json() == {
        "balance": 70,
        "reserved": 30,
        "plan": FREE,
        "next_grant_at": period_end(),
    }


def test_the_ledger_api_reads_empty_without_opening_the_account(api_client, user):
    api_client.force_login(user)
    response = get_writing_nothing(api_client, "/api/usage/ledger")
    assert response.json() == {"results": [], "next": None}
    assert not QuotaAccount.objects.filter(user=user).exists()
    assert not LedgerEntry.objects.exists()


def test_the_usage_page_shows_the_opening_grant_without_opening_the_account(client, user):
    client.force_login(user)
    client.get("/")  # the first request after sign-in refreshes the session
    html = get_writing_nothing(client, "/usage/").content.decode()
    assert '<dd id="usage-balance">100</dd>' in html
    assert '<dd id="usage-reserved">0</dd>' in html
    assert "Plan: Free" in html
    rows = table(html, "usage-grants")
    assert [(source, granted, left) for (source, _), (granted, _), (left, _), _e in rows] == [
        ("Plan period", "100", "100")
    ]
    assert table(html, "usage-ledger") == [[("No usage yet.", None)]]
    assert not QuotaAccount.objects.filter(user=user).exists()
    assert not QuotaGrant.objects.exists()


def test_paging_the_usage_page_of_a_user_without_an_account_opens_nothing(client, user):
    client.force_login(user)
    client.get("/")
    get_writing_nothing(client, "/usage/?before=5")
    assert not QuotaAccount.objects.filter(user=user).exists()


def test_reads_do_not_recreate_a_missing_default_plan(api_client, user):
    Plan.objects.all().delete()
    api_client.force_login(user)
    assert get_writing_nothing(api_client, "/api/usage/balance").json()["plan"] == FREE
    assert not Plan.objects.exists()
    assert not QuotaAccount.objects.exists()


def test_a_staff_grant_opens_the_account_with_its_plan_grant_too(user):
    services.quota_grant(account=services.quota_account_for(user=user), amount=5, source="staff")
    account = QuotaAccount.objects.get(user=user)
    assert (account.balance, account.reserved) == (105, 0)
