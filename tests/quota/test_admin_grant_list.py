"""The admin's grant list is narrow enough to read beside the sidebar (short headings, dates
that break between date and time); who granted a grant and when stay on its page."""

import re
from datetime import UTC, datetime

import pytest

from apps.quota.models import QuotaGrant
from apps.quota.services import quota_account_for, quota_grant

from .test_admin_usable_now import _TAGS, listed

pytestmark = pytest.mark.django_db

_HEADINGS = re.compile(r'<th scope="col" class="[^"]*column-(\w+)[^"]*">(.*?)</th>', re.DOTALL)


def test_the_grant_list_has_short_headings_and_dates_and_the_page_keeps_actor_and_date(
    staff_client, make_user, zero_plan
):
    client, staff = staff_client
    account = quota_account_for(user=make_user("player@example.test"), plan=zero_plan)
    grant = quota_grant(
        account=account,
        amount=7,
        source=QuotaGrant.Source.STAFF,
        actor=staff,
        expires_at=datetime(2099, 3, 4, 15, 30, tzinfo=UTC),
    )
    html = client.get("/admin/quota/quotagrant/").content.decode()
    assert [(name, re.sub(r"\s+", " ", _TAGS.sub("", text)).strip())
            for name, text in _HEADINGS.findall(html)] == [
        ("account", "Account"),
        ("grant_source", "Source"),
        ("amount", "Amount"),
        ("stored_left", "Left (stored)"),
        ("held_by_turns", "Held"),
        ("usable_now", "Usable now"),
        ("expires", "Expires"),
    ]  # fmt: skip
    assert [row["expires"] for row in listed(html)] == ["Mar 4, 2099, 3:30 PM UTC"]
    page = client.get(f"/admin/quota/quotagrant/{grant.pk}/change/")
    shown = {
        field.field["name"]: _TAGS.sub("", str(field.contents()))
        for fieldset in page.context["adminform"]
        for line in fieldset
        for field in line
    }
    assert (shown["actor"], shown["expires_at"]) == (str(staff), "Mar 4, 2099, 3:30 PM UTC")
    assert shown["created_at"] != "-"
