"""Reading usage writes nothing: the balance, ledger and usage page show an expired grant's
unused credits as gone without forfeiting them. The periodic expiry run (or the account's next
reservation) writes their expiry into the ledger."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.quota import services
from apps.quota.models import LedgerEntry, QuotaAccount, QuotaGrant

from .test_expired_part import held_six_of_an_expired_ten_and_five_lasting
from .test_usage_page import table

pytestmark = pytest.mark.django_db

_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b|\bFOR (NO KEY )?UPDATE\b", re.IGNORECASE)


def quota_state(account) -> tuple:
    """Everything a read could change: the ledger, each grant's credits, the account's."""
    return (
        list(LedgerEntry.objects.filter(account=account).values_list("id", "kind", "amount")),
        list(QuotaGrant.objects.filter(account=account).order_by("amount").values_list(
            "amount", "remaining")),
        QuotaAccount.objects.values_list("balance", "reserved").get(pk=account.pk),
    )  # fmt: skip


def read_writes_nothing(client, url: str, account):
    """GET `url`, asserting that no statement wrote or locked a quota row; returns the
    response."""
    before = quota_state(account)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    quota_sql = [q["sql"] for q in queries.captured_queries if '"quota_' in q["sql"]]
    locking = [sql for sql in quota_sql if _WRITE.search(sql)]
    assert locking == []
    assert quota_state(account) == before
    assert len(before[0]) == 2  # the two grants' entries, no expiry
    return response


def test_balance_api_writes_nothing_and_leaves_out_the_expired_credits(api_client, user, funded):
    account = held_six_of_an_expired_ten_and_five_lasting(user, funded)
    api_client.force_login(user)
    response = read_writes_nothing(api_client, "/api/usage/balance", account)
    assert (response.json()["balance"], response.json()["reserved"]) == (5, 6)


def test_ledger_api_writes_nothing(api_client, user, funded):
    account = held_six_of_an_expired_ten_and_five_lasting(user, funded)
    api_client.force_login(user)
    response = read_writes_nothing(api_client, "/api/usage/ledger", account)
    results = response.json()["results"]
    assert [(e["kind"], e["amount"], e["balance_after"], e["credits_after"]) for e in results] == [
        ("grant", 5, 15, 15),
        ("grant", 10, 10, 10),
    ]


def test_usage_page_writes_nothing_and_shows_the_credits_usable_now(client, user, funded):
    account = held_six_of_an_expired_ten_and_five_lasting(user, funded)
    client.force_login(user)
    client.get("/usage/")  # the first request after sign-in also refreshes the session
    html = read_writes_nothing(client, "/usage/", account).content.decode()
    assert '<dd id="usage-balance">5</dd>' in html
    assert '<dd id="usage-reserved">6</dd>' in html
    assert "Now: 5 available + 6 held by turns in progress = 11 credits." in html
    rows = table(html, "usage-grants")
    assert [(granted, left) for _s, (granted, _), (left, _), _e in rows] == [
        ("10", "6 held by turns in progress"),
        ("5", "5"),
    ]


def test_the_periodic_run_writes_the_expiry_the_reads_left_out(api_client, user, funded):
    account = held_six_of_an_expired_ten_and_five_lasting(user, funded)
    api_client.force_login(user)
    assert api_client.get("/api/usage/balance").json()["balance"] == 5
    services.quota_issue_periodic_grants()
    newest = api_client.get("/api/usage/ledger?limit=1").json()["results"]
    assert [(e["kind"], e["amount"], e["balance_after"], e["credits_after"]) for e in newest] == [
        ("expire", 4, 5, 11)
    ]
    assert api_client.get("/api/usage/balance").json()["balance"] == 5
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (5, 6)
