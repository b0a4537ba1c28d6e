"""A reservation's and a ledger entry's admin pages say when it was made: the lists keep to a
1440 px screen with no room for it beside what lapses when, so the page is where staff read it."""

import re
from datetime import UTC, datetime

import pytest
from django.utils import formats, timezone

from apps.quota import services
from apps.quota.models import LedgerEntry, Reservation

pytestmark = pytest.mark.django_db

_TAGS = re.compile(r"<[^>]+>")
MADE = datetime(2026, 3, 4, 15, 30, tzinfo=UTC)


def shown(response, names) -> dict[str, str]:
    return {
        field.field["name"]: _TAGS.sub("", str(field.contents()))
        for fieldset in response.context["adminform"]
        for line in fieldset
        for field in line
        if field.field["name"] in names
    }


def test_the_reservation_and_entry_pages_say_when_they_were_made(staff_client, make_user, funded):
    client, _ = staff_client
    user = make_user("player@example.test")
    funded(user, 20)
    reservation = services.quota_reserve(user=user, amount=5, key="turn-1")
    entry = services.quota_settle(reservation=reservation, actual=2)
    Reservation.objects.filter(pk=reservation.pk).update(created_at=MADE)
    LedgerEntry.objects.filter(pk=entry.pk).update(created_at=MADE)
    at = formats.localize(timezone.localtime(MADE))
    page = client.get(f"/admin/quota/reservation/{reservation.pk}/change/")
    assert shown(page, {"created_at", "key"}) == {"key": "turn-1", "created_at": at}
    page = client.get(f"/admin/quota/ledgerentry/{entry.pk}/change/")
    assert shown(page, {"id", "created_at", "amount"}) == {
        "id": str(entry.pk),
        "created_at": at,
        "amount": "2",
    }
