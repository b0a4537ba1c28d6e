"""The unused part of a grant whose expiry has passed counts nowhere: not in the balance the
usage reads show, not in a grant's credits left, not in what can be reserved, whether or not the
expiry run has written its expiry yet. Only the part active reservations hold stays."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.core.errors import QuotaExceeded
from apps.quota import selectors, services
from apps.quota.models import LedgerEntry, QuotaGrant, Reservation

pytestmark = pytest.mark.django_db


def held_six_of_an_expired_ten_and_five_lasting(user, funded):
    """10 credits expiring soon and 5 that never expire; a turn holds 6 (drawn from the 10
    first), then the 10's expiry passes: 4 of it are unused and expired, 6 are held."""
    soon = timezone.now() + timedelta(hours=1)
    account = funded(user, 10, 5, expires=[soon, None])
    services.quota_reserve(user=user, amount=6, key="k1")
    expired = timezone.now() - timedelta(minutes=1)
    QuotaGrant.objects.filter(account=account, amount=10).update(expires_at=expired)
    # The turn reserved before the expiry.
    Reservation.objects.filter(account=account).update(created_at=expired - timedelta(minutes=1))
    account.refresh_from_db()
    # Stored figures: nothing has forfeited the 4 yet.
    assert (account.balance, account.reserved) == (9, 6)
    return account


def test_balance_read_leaves_out_the_unheld_part_of_an_expired_grant(user, funded):
    account = held_six_of_an_expired_ten_and_five_lasting(user, funded)
    balance = selectors.quota_balance(account=account)
    assert (balance["balance"], balance["reserved"]) == (5, 6)


def test_an_expired_grant_lists_only_what_reservations_hold_of_it(user, funded):
    account = held_six_of_an_expired_ten_and_five_lasting(user, funded)
    grants = selectors.quota_grants_for(account=account)
    assert [(g.amount, g.left, g.lapsed) for g in grants] == [(10, 6, True), (5, 5, False)]


def test_the_balance_read_is_exactly_what_can_be_reserved(user, funded):
    account = held_six_of_an_expired_ten_and_five_lasting(user, funded)
    assert selectors.quota_balance(account=account)["balance"] == 5
    with pytest.raises(QuotaExceeded) as exc:
        services.quota_reserve(user=user, amount=6, key="k2")
    assert exc.value.details == {"balance": 5, "held": 6, "needed": 6}
    assert services.quota_reserve(user=user, amount=5, key="k3").amount == 5
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 11)
    assert selectors.quota_balance(account=account)["balance"] == 0
    assert list(
        LedgerEntry.objects.filter(account=account, kind="expire").values_list("amount", flat=True)
    ) == [4]
