"""A ledger entry's and a reservation's admin pages name the kind and status with a capital
("Charge", "Settled"), as their lists' columns and filters do."""

import pytest

from apps.quota import services
from apps.quota.models import LedgerEntry

pytestmark = pytest.mark.django_db


def _fields(response, names):
    return {
        field.field["name"]: (str(field.field["label"]), field.contents())
        for fieldset in response.context["adminform"]
        for line in fieldset
        for field in line
        if field.field["name"] in names
    }


def test_the_entry_and_reservation_pages_name_kind_and_status_with_a_capital(
    staff_client, make_user, funded
):
    client, _ = staff_client
    user = make_user("player@example.test")
    funded(user, 10)
    reservation = services.quota_reserve(user=user, amount=5, key="turn-1")
    services.quota_settle(reservation=reservation, actual=3)
    entry = LedgerEntry.objects.get(reservation=reservation)
    response = client.get(f"/admin/quota/ledgerentry/{entry.pk}/change/")
    assert _fields(response, {"kind", "entry_kind"}) == {"entry_kind": ("kind", "Charge")}
    response = client.get(f"/admin/quota/reservation/{reservation.pk}/change/")
    assert _fields(response, {"status", "reservation_status"}) == {
        "reservation_status": ("status", "Settled")
    }
