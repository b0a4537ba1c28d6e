"""A ledger entry's admin page titles the grants a charge drew from as staff know them (amount
and source, then when it expires or which period it covers), not by the grant's id."""

import re
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.quota import services
from apps.quota.models import QuotaGrant

pytestmark = pytest.mark.django_db

_TITLE = re.compile(r'<td class="original">\s*<p>\s*(.*?)\s*</p>', re.DOTALL)


def test_a_charges_allocations_are_titled_by_source_amount_and_expiry_not_grant_id(
    staff_client, make_user, funded
):
    client, _ = staff_client
    user = make_user("player@example.test")
    account = funded(user, 2, expires=[datetime(2099, 3, 4, 15, 30, tzinfo=UTC)])
    services.quota_grant(
        account=account,
        amount=100,
        source=QuotaGrant.Source.PLAN,
        period_start=datetime(2099, 1, 1, tzinfo=UTC),
        period_end=datetime(2099, 2, 1, tzinfo=UTC),
    )
    services.quota_grant(account=account, amount=1, source=QuotaGrant.Source.STAFF)
    spent = services.quota_reserve(user=user, amount=103, key="turn")
    entry = services.quota_settle(reservation=spent, actual=103)
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(f"/admin/quota/ledgerentry/{entry.pk}/change/").content.decode()
    # The grants come with their allocations, not one query per row.
    assert [q for q in ctx.captured_queries if 'FROM "quota_quotagrant"' in q["sql"]] == []
    assert _TITLE.findall(page) == [
        "2 credits from 2 credits (system), expires Mar 4, 2099, 3:30 PM UTC",
        "100 credits from 100 credits (plan period), for Jan 1, 2099 – Feb 1, 2099",
        "1 credit from 1 credit (staff grant), never expires",
    ]
