"""The admin's ledger names its stored balance for what it is: the credits available after the
entry, held ones not counted; the usage page's "Balance after" counts them, so the same entry
shows two figures that staff must be able to tell apart."""

import pytest

from apps.quota import services
from apps.quota.models import LedgerEntry

from .test_admin_usable_now import listed

pytestmark = pytest.mark.django_db


def test_the_ledger_list_and_entry_say_the_balance_after_leaves_held_credits_out(
    staff_client, make_user, funded
):
    client, _ = staff_client
    user = make_user("player@example.test")
    funded(user, 20)
    services.quota_reserve(user=user, amount=5, key="turn-held")
    spent = services.quota_reserve(user=user, amount=5, key="turn-spent")
    entry = services.quota_settle(reservation=spent, actual=3)
    page = client.get("/admin/quota/ledgerentry/").content.decode()
    assert ">Available after (held not counted)</a>" in page
    assert [(r["entry_kind"], r["amount"], r["balance_after"]) for r in listed(page)] == [
        ("Charge", "3", "12"),
        ("Grant", "20", "20"),
    ]
    response = client.get(f"/admin/quota/ledgerentry/{entry.pk}/change/")
    labels = [
        str(field.field["label"])
        for fieldset in response.context["adminform"]
        for line in fieldset
        for field in line
        if field.field["name"] == "balance_after"
    ]
    assert labels == ["available after (held not counted)"]
    assert LedgerEntry.objects.get(pk=entry.pk).balance_after == 12
