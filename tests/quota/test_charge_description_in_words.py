"""A charge's ledger description names what held the credits in words ("Room turn"), not the
owner code the reservation was made with ("room_turn"): staff read it on the entry's admin page
and API clients in the ledger. Entries stored before with the code read in words too."""

import pytest
from django.db import connection

from apps.quota import services
from apps.quota.models import LedgerEntry

pytestmark = pytest.mark.django_db


def test_a_settled_charge_is_described_in_words_on_either_settlement_path(
    user, funded, settle_path
):
    funded(user, 10)
    reservation = services.quota_reserve(
        user=user, amount=5, key="turn-1", owner_type="room_turn", owner_id="job-1"
    )
    entry = services.quota_settle(reservation=reservation, actual=3)
    assert entry.description == "Room turn"
    assert LedgerEntry.objects.get(pk=entry.pk).description == "Room turn"
    # On PostgreSQL the one-statement path wrote it unless the test turned that path off.
    if connection.vendor == "postgresql":
        wrote_fast = settle_path.mode == "one_statement"
        assert [hit is not None for hit in settle_path.hits] == [wrote_fast]


def _stored_with_the_code(user, funded):
    """A charge written before descriptions were in words: its description is the owner code."""
    funded(user, 10)
    reservation = services.quota_reserve(
        user=user, amount=5, key="turn-old", owner_type="room_turn", owner_id="job-old"
    )
    entry = services.quota_settle(reservation=reservation, actual=3)
    LedgerEntry.objects.filter(pk=entry.pk).update(description="room_turn")
    return entry


def test_the_admin_shows_an_old_charge_described_by_its_code_in_words(
    staff_client, make_user, funded
):
    client, _ = staff_client
    entry = _stored_with_the_code(make_user("player@example.test"), funded)
    page = client.get(f"/admin/quota/ledgerentry/{entry.pk}/change/").content.decode()
    assert '<div class="readonly">Room turn</div>' in page
    assert "room_turn" not in page


def test_the_ledger_api_gives_an_old_charge_described_by_its_code_in_words(
    api_client, user, funded
):
    entry = _stored_with_the_code(user, funded)
    api_client.force_login(user)
    [charge] = [
        r for r in api_client.get("/api/usage/ledger").json()["results"] if r["id"] == entry.pk
    ]
    assert charge["description"] == "Room turn"
