"""The admin's ledger and reservation lists name an entry's kind and a reservation's status with
a capital ("Charge", "Active"), in their column and in their filter, as the grant list names a
grant's source: the labels are lowercase to read mid-sentence."""

import re

import pytest

from apps.quota import services

from .test_admin_usable_now import _TAGS, listed

pytestmark = pytest.mark.django_db


def _filter_choices(html: str) -> list[str]:
    filter_html = html.split('id="changelist-filter"', 1)[1]
    return [_TAGS.sub("", text).strip() for text in re.findall(r"<li\b.*?</li>", filter_html, re.S)]


def test_the_ledger_list_names_kinds_with_a_capital(staff_client, make_user, funded):
    client, _ = staff_client
    user = make_user("player@example.test")
    funded(user, 20)
    spent = services.quota_reserve(user=user, amount=5, key="turn-spent")
    services.quota_settle(reservation=spent, actual=3)
    html = client.get("/admin/quota/ledgerentry/").content.decode()
    assert [row["entry_kind"] for row in listed(html)] == ["Charge", "Grant"]
    assert _filter_choices(html) == ["All", "Grant", "Charge", "Expiry", "Withdrawal"]
    filtered = client.get("/admin/quota/ledgerentry/?kind=charge").content.decode()
    assert [row["entry_kind"] for row in listed(filtered)] == ["Charge"]


def test_the_reservation_list_names_statuses_with_a_capital(staff_client, make_user, funded):
    client, _ = staff_client
    user = make_user("player@example.test")
    funded(user, 20)
    services.quota_reserve(user=user, amount=5, key="turn-held")
    spent = services.quota_reserve(user=user, amount=5, key="turn-spent")
    services.quota_settle(reservation=spent, actual=3)
    html = client.get("/admin/quota/reservation/").content.decode()
    assert sorted(row["reservation_status"] for row in listed(html)) == ["Active", "Settled"]
    choices = _filter_choices(html)
    assert choices[: choices.index("Expired") + 1] == [
        "All",
        "Active",
        "Settled",
        "Released",
        "Expired",
    ]
    filtered = client.get("/admin/quota/reservation/?status=active").content.decode()
    assert [row["reservation_status"] for row in listed(filtered)] == ["Active"]
