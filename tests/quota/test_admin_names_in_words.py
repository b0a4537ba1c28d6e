"""Staff see ledger entries and reservations named in words wherever the admin names them (their
pages and history, the ledger list, log entries), not as stored codes."""

import pytest

from apps.quota import services
from apps.quota.models import LedgerEntry, Reservation

from .test_admin_usable_now import five_of_an_expired_ten_unused, listed

pytestmark = pytest.mark.django_db


def test_entries_and_reservations_are_named_in_words(staff_client, make_user, funded):
    client, _ = staff_client
    user = make_user("player@example.test")
    account = five_of_an_expired_ten_unused(user, funded)
    services.quota_reserve(user=user, amount=1, key="turn-1")  # forfeits the expired 10 first
    settled = services.quota_reserve(user=user, amount=3, key="turn-2")
    services.quota_settle(reservation=settled, actual=2)
    names = {str(entry) for entry in LedgerEntry.objects.filter(account=account)}
    assert names == {
        "Grant of 10 credits",
        "Grant of 5 credits",
        "Expiry of 10 credits",
        "Charge of 2 credits",
    }
    held = Reservation.objects.get(key="turn-1")
    assert (str(held), str(settled)) == ("turn-1: 1 credit, active", "turn-2: 3 credits, settled")
    page = client.get(f"/admin/quota/reservation/{held.pk}/history/").content.decode()
    assert "<title>Change history: turn-1: 1 credit, active | SagaSmith staff</title>" in page


def test_a_charge_names_the_reservation_it_settled(staff_client, make_user, funded):
    client, _ = staff_client
    user = make_user("player@example.test")
    funded(user, 20)
    spent = services.quota_reserve(user=user, amount=5, key="turn-spent")
    entry = services.quota_settle(reservation=spent, actual=1)
    rows = listed(client.get("/admin/quota/ledgerentry/").content.decode())
    assert [r["settled"] for r in rows] == ["turn-spent", "-"]
    page = client.get(f"/admin/quota/ledgerentry/{entry.pk}/change/").content.decode()
    assert "<h2>Charge of 1 credit</h2>" in page
    assert (
        f'/admin/quota/reservation/{spent.pk}/change/">turn-spent: 5 credits, settled</a>' in page
    )
