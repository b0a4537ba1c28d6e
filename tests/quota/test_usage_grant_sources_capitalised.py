"""The usage page's grants name their source as the page's other labels are written, with a
capital ("Plan period", "Staff grant"), from the grant's source labels: not "plan period"."""

import pytest
from django.utils import formats, timezone

from apps.quota import services
from apps.quota.models import Plan, QuotaGrant

from .test_usage_page import table

pytestmark = pytest.mark.django_db


def test_each_grant_source_starts_with_a_capital(client, user):
    account = services.quota_account_for(
        user=user, plan=Plan.objects.create(slug="small", name="Small", periodic_grant=100)
    )
    services.quota_account_plan_change(
        account=account,
        plan=Plan.objects.create(slug="pro", name="Pro", periodic_grant=500),
        actor=None,
    )
    services.quota_grant(account=account, amount=5, source=QuotaGrant.Source.SYSTEM)
    services.quota_grant(account=account, amount=7, source=QuotaGrant.Source.STAFF, note="Thanks")
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    start = services.plan_period_bounds(plan=account.plan, at=timezone.now())[0].date()
    start = formats.date_format(start, "DATE_FORMAT")  # as the page writes dates
    # In the order charges draw from them: the plan's, expiring at the period's end, then the
    # never-expiring ones, oldest first.
    assert [source for (source, _), *_rest in table(html, "usage-grants")] == [
        "Plan period",
        f"Plan upgrade Upgrade to Pro plan, period from {start}",
        "System",
        "Staff grant Thanks",
    ]
