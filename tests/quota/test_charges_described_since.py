"""Charges written with an empty description before settlement read the owner type from the
reservation row are described by it afterwards (the migration), so the entry's admin page says
"Room turn" for them too; a charge with a description and one whose reservation had no owner
keep theirs."""

import importlib

import pytest
from django.apps import apps

from apps.quota import services
from apps.quota.models import LedgerEntry

pytestmark = pytest.mark.django_db

migration = importlib.import_module(
    "apps.quota.migrations.0011_describe_charges_settled_without_words"
)


def _charge(user, key, owner_type, description):
    reservation = services.quota_reserve(user=user, amount=2, key=key, owner_type=owner_type)
    entry = services.quota_settle(reservation=reservation, actual=1)
    LedgerEntry.objects.filter(pk=entry.pk).update(description=description)
    return entry.pk


def test_charges_written_without_a_description_are_described_by_their_owner_type(
    user, funded, staff_client
):
    funded(user, 10)
    blank = _charge(user, "turn-1", "room_turn", "")
    described = _charge(user, "turn-2", "room_turn", "Room turn")
    ownerless = _charge(user, "other-1", "", "")

    migration.describe_charges(apps, None)

    stored = dict(LedgerEntry.objects.filter(kind="charge").values_list("pk", "description"))
    assert stored == {blank: "room_turn", described: "Room turn", ownerless: ""}
    client, _staff = staff_client
    page = client.get(f"/admin/quota/ledgerentry/{blank}/change/").content.decode()
    assert '<div class="readonly">Room turn</div>' in page
