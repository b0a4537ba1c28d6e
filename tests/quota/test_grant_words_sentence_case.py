"""The admin's grant list names each grant's source as the usage page does, with a capital
("Staff grant", not "staff grant"), in its column and in its filter; the usage page says
"Never expires" as it says "Expired"."""

import re

import pytest

from apps.quota.models import QuotaGrant
from apps.quota.services import quota_account_for, quota_grant

from .test_admin_usable_now import _TAGS, listed

pytestmark = pytest.mark.django_db


def test_the_grant_list_names_sources_with_a_capital(staff_client, make_user, zero_plan):
    client, staff = staff_client
    account = quota_account_for(user=make_user("player@example.test"), plan=zero_plan)
    quota_grant(account=account, amount=7, source=QuotaGrant.Source.STAFF, actor=staff)
    quota_grant(account=account, amount=3, source=QuotaGrant.Source.SYSTEM)
    html = client.get("/admin/quota/quotagrant/").content.decode()
    assert [row["grant_source"] for row in listed(html)] == ["System", "Staff grant"]
    filter_html = html.split('id="changelist-filter"', 1)[1]
    choices = [
        _TAGS.sub("", text).strip() for text in re.findall(r"<li\b.*?</li>", filter_html, re.S)
    ]
    assert choices[:5] == ["All", "Plan period", "Staff grant", "System", "Plan upgrade"]
    filtered = client.get("/admin/quota/quotagrant/?source=staff").content.decode()
    assert [row["grant_source"] for row in listed(filtered)] == ["Staff grant"]


def test_the_usage_page_says_a_lasting_grant_expires_never_with_a_capital(client, user, funded):
    from .test_usage_page import table

    funded(user, 5)
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-grants")
    assert [(source, expires) for (source, _), _g, _l, (expires, _) in rows] == [
        ("System", "Never expires")
    ]


def test_the_grant_list_says_a_lasting_grant_never_expires(staff_client, make_user, zero_plan):
    from datetime import timedelta

    from django.utils import timezone

    from apps.core.moments import stamp

    client, staff = staff_client
    account = quota_account_for(user=make_user("player@example.test"), plan=zero_plan)
    quota_grant(account=account, amount=7, source=QuotaGrant.Source.STAFF, actor=staff)
    ends = timezone.now() + timedelta(days=3)
    quota_grant(account=account, amount=3, source=QuotaGrant.Source.SYSTEM, expires_at=ends)
    html = client.get("/admin/quota/quotagrant/").content.decode()
    assert [row["expires"] for row in listed(html)] == [stamp(ends), "Never"]
