"""A reservation is made as of one moment, the one its request began at: a grant usable then is
usable for it, even if the grant expires a microsecond later while the request is still writing
rows. Before, the reservation row was stamped a moment after the request began, so a grant
expiring in between made it refuse with 402 although the credits were there."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from apps.quota import services
from apps.quota.models import LedgerEntry, QuotaGrant

pytestmark = pytest.mark.django_db


@pytest.fixture
def ticking(monkeypatch):
    """A clock that moves one microsecond each time it is read, from `start` on."""
    clock = SimpleNamespace(start=None)

    def now():
        at = clock.start
        clock.start += timedelta(microseconds=1)
        return at

    def start(at):
        clock.start = at
        monkeypatch.setattr(timezone, "now", now)

    return start


def test_a_grant_expiring_while_the_reservation_is_written_still_pays_for_it(user, funded, ticking):
    began = timezone.now().replace(microsecond=0) + timedelta(hours=1)
    # 5 credits expired long ago and not yet written off (so PostgreSQL's one statement hands
    # over to the ORM path too), and 10 that expire one microsecond after the request begins.
    account = funded(
        user, 5, 10, expires=[began - timedelta(days=1), began + timedelta(microseconds=1)]
    )
    QuotaGrant.objects.filter(account=account, amount=5).update(
        created_at=began - timedelta(days=2)
    )
    ticking(began)
    reservation = services.quota_reserve(user=user, amount=10, key="turn")
    assert reservation.created_at == began
    reservation.refresh_from_db()
    assert (reservation.created_at, reservation.heartbeat_at) == (began, began)
    assert reservation.expires_at == began + timedelta(seconds=services.DEFAULT_TTL_SECONDS)
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 10)
    assert list(
        LedgerEntry.objects.filter(account=account, kind="expire").values_list("amount", flat=True)
    ) == [5]
    entry = services.quota_settle(reservation=reservation, actual=10)
    assert [(a.grant.amount, a.amount) for a in entry.allocations.all()] == [(10, 10)]
