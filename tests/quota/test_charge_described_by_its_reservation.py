"""A charge is described by what held its credits as the reservation row says, whatever copy of
the reservation the caller settles with: a room turn settles with a copy that carries only the
reservation's key, and its charge read "" (an empty Description on the entry's admin page)
where it reads "Room turn"."""

import pytest
from django.db import connection

from apps.quota import services
from apps.quota.models import LedgerEntry, Reservation

pytestmark = pytest.mark.django_db


def test_a_charge_settled_with_a_bare_copy_of_its_reservation_is_described_in_words(
    user, funded, settle_path, staff_client
):
    funded(user, 10)
    reservation = services.quota_reserve(
        user=user, amount=5, key="turn-1", owner_type="room_turn", owner_id="job-1"
    )
    entry = services.quota_settle(reservation=Reservation(pk=reservation.pk), actual=3)
    assert entry.description == "Room turn"
    assert LedgerEntry.objects.get(pk=entry.pk).description == "Room turn"
    if connection.vendor == "postgresql":
        wrote_fast = settle_path.mode == "one_statement"
        assert [hit is not None for hit in settle_path.hits] == [wrote_fast]

    client, _staff = staff_client
    page = client.get(f"/admin/quota/ledgerentry/{entry.pk}/change/").content.decode()
    assert '<div class="readonly">Room turn</div>' in page


def test_a_charge_for_an_owner_without_words_is_described_by_its_code_in_words(
    user, funded, settle_path
):
    funded(user, 10)
    reservation = services.quota_reserve(
        user=user, amount=5, key="export-1", owner_type="campaign_export", owner_id="e-1"
    )
    entry = services.quota_settle(reservation=Reservation(pk=reservation.pk), actual=2)
    assert LedgerEntry.objects.get(pk=entry.pk).description_in_words == "Campaign export"
    assert entry.description_in_words == "Campaign export"
