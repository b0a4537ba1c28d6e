"""The admin's grant, reservation and ledger lists write their moments as every page does, with
the zone ("Mar 4, 2099, 3:30 PM UTC"): the admin writes its own columns in the page's zone, and
a moment without one reads as the reader's own. A narrow column breaks one between its date and
its time, not inside either."""

import re
from datetime import UTC, datetime

import pytest
from django.utils import translation

from apps.quota import services
from apps.quota.models import LedgerEntry, QuotaGrant, Reservation

from .test_admin_usable_now import listed

pytestmark = pytest.mark.django_db

AT = datetime(2099, 3, 4, 15, 30, tzinfo=UTC)


def cell(html: str, column: str) -> list[str]:
    """The inner markup of a changelist column's cells, top to bottom."""
    return re.findall(rf'<td class="field-{column}[^"]*">(.*?)</td>', html, re.S)


def test_the_grant_list_says_when_a_grant_expires_with_its_zone(staff_client, make_user, zero_plan):
    client, staff = staff_client
    account = services.quota_account_for(user=make_user("player@example.test"), plan=zero_plan)
    services.quota_grant(account=account, amount=7, source=QuotaGrant.Source.STAFF, actor=staff)
    services.quota_grant(account=account, amount=3, source=QuotaGrant.Source.SYSTEM, expires_at=AT)
    html = client.get("/admin/quota/quotagrant/").content.decode()
    assert [row["expires"] for row in listed(html)] == ["Mar 4, 2099, 3:30 PM UTC", "Never"]
    assert cell(html, "expires")[0] == (
        '<time datetime="2099-03-04T15:30:00+00:00"><span class="nowrap">Mar 4, 2099,</span> '
        '<span class="nowrap">3:30 PM UTC</span></time>'
    )


def test_the_reservation_and_ledger_lists_say_their_moments_with_the_zone(
    staff_client, make_user, funded
):
    client, _ = staff_client
    user = make_user("player@example.test")
    funded(user, 20)
    reservation = services.quota_reserve(user=user, amount=5, key="turn-1")
    Reservation.objects.filter(pk=reservation.pk).update(expires_at=AT)
    LedgerEntry.objects.update(created_at=AT)
    reservations = listed(client.get("/admin/quota/reservation/").content.decode())
    assert [row["held_until"] for row in reservations] == ["Mar 4, 2099, 3:30 PM UTC"]
    entries = listed(client.get("/admin/quota/ledgerentry/").content.decode())
    assert [row["when"] for row in entries] == ["Mar 4, 2099, 3:30 PM UTC"]


def test_a_moment_breaks_after_its_date_in_another_languages_style():
    from apps.core.admin import moment_in_a_column

    # Simplified Chinese writes no comma after the date: the break still falls between the two.
    with translation.override("zh-hans"):
        assert moment_in_a_column(AT) == (
            '<time datetime="2099-03-04T15:30:00+00:00"><span class="nowrap">2099年3月4日</span> '
            '<span class="nowrap">15:30 UTC</span></time>'
        )
