"""Writing off credits touches the account row only when something was written off: a
withdrawal with no expired grants, or one whose credits are all held, does not rewrite the
account's balance for nothing."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.quota import services
from apps.quota.models import QuotaAccount

pytestmark = pytest.mark.django_db

ACCOUNT_TABLE = QuotaAccount._meta.db_table


def account_updates(queries) -> list[str]:
    return [
        q["sql"]
        for q in queries
        if q["sql"].startswith("UPDATE") and f'"{ACCOUNT_TABLE}"' in q["sql"].split("SET")[0]
    ]


def test_withdrawing_without_expired_grants_updates_the_account_once(user, funded):
    account = funded(user, 10, 5)
    grant = account.grants.get(amount=5)
    with CaptureQueriesContext(connection) as ctx:
        taken, left = services.quota_grant_withdraw(grant=grant, actor=None)
    assert (taken, left) == (5, 0)
    assert len(account_updates(ctx.captured_queries)) == 1
    assert len(ctx.captured_queries) == 12
    account.refresh_from_db()
    assert account.balance == 10


def test_withdrawing_credits_all_held_does_not_update_the_account(user, funded):
    account = funded(user, 4, expires=[timezone.now() + timedelta(days=1)])
    services.quota_reserve(user=user, amount=4, key="turn-1")
    account.refresh_from_db()
    before, grant = account.updated_at, account.grants.get()
    with CaptureQueriesContext(connection) as ctx:
        taken, left = services.quota_grant_withdraw(grant=grant, actor=None)
    assert (taken, left) == (0, 4)
    assert account_updates(ctx.captured_queries) == []
    assert len(ctx.captured_queries) == 9
    account.refresh_from_db()
    assert (account.balance, account.reserved, account.updated_at) == (0, 4, before)
