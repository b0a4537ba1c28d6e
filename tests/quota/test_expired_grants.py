"""Credits of a grant past its expiry are not usable from that moment, not only once the periodic
expiry run has forfeited them: they cannot be reserved and are not shown as available."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from apps.core.errors import QuotaExceeded
from apps.quota import services
from apps.quota.models import LedgerAllocation, LedgerEntry, QuotaGrant, Reservation
from tests.conftest import require_postgres

from .conftest import assert_invariant

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["one_statement", "orm"])
def reserve_path(request, monkeypatch):
    """Runs a reservation test on both paths: PostgreSQL's one-statement reservation (the ORM
    path elsewhere) and the ORM path it falls back to."""
    path = SimpleNamespace(mode=request.param)
    if request.param == "orm":
        monkeypatch.setattr(services, "_reserve_one_statement", lambda **kwargs: None)
    return path


def lapse(grant: QuotaGrant) -> None:
    """The grant's expiry passes (the expiry run has not come yet): turns that already
    hold credits reserved them before it."""
    expired = timezone.now() - timedelta(minutes=1)
    QuotaGrant.objects.filter(pk=grant.pk).update(expires_at=expired)
    Reservation.objects.filter(account_id=grant.account_id).update(
        created_at=expired - timedelta(minutes=1)
    )


def expiries(account) -> list[int]:
    return list(
        LedgerEntry.objects.filter(account=account, kind="expire")
        .order_by("id")
        .values_list("amount", flat=True)
    )


def assert_expired_once(account, amounts: list[int]) -> None:
    """The lapsed credits were forfeited as `amounts`, and the expiry run finds nothing more."""
    assert expiries(account) == amounts
    assert services.quota_expire_grants() == 0
    assert expiries(account) == amounts


def expiring_ten_and(user, funded, lasting: int):
    """An account with 10 credits expiring within the hour and `lasting` that never expire."""
    soon = timezone.now() + timedelta(hours=1)
    return funded(user, 10, lasting, expires=[soon, None])


def lapsed_ten_and_three(user, funded):
    """10 credits whose expiry has just passed (the expiry run has not come) and 3 lasting."""
    account = expiring_ten_and(user, funded, 3)
    lapse(account.grants.get(amount=10))
    return account


def hold_six_then_lapse(user, funded):
    """10 expiring credits and 5 lasting ones; a turn holds 6, then the 10's expiry passes."""
    account = expiring_ten_and(user, funded, 5)
    expiring = account.grants.get(amount=10)
    held = services.quota_reserve(user=user, amount=6, key="k1")
    lapse(expiring)
    return account, expiring, held


def test_credits_of_an_expired_grant_cannot_be_reserved_before_the_expiry_run(
    reserve_path, user, funded
):
    account = lapsed_ten_and_three(user, funded)
    with pytest.raises(QuotaExceeded) as exc:
        services.quota_reserve(user=user, amount=4, key="k1")
    assert exc.value.details == {"balance": 3, "held": 0, "needed": 4}
    reservation = services.quota_reserve(user=user, amount=3, key="k2")
    assert reservation.amount == 3
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 3)
    # The expiry run finds nothing more to forfeit: the credits expired exactly once.
    assert_expired_once(account, [10])
    assert_invariant(account)


def test_a_turn_held_before_expiry_pays_from_that_grant_and_its_unused_rest_expires_at_once(
    reserve_path, settle_path, user, funded
):
    account, expiring, held = hold_six_then_lapse(user, funded)
    entry = services.quota_settle(reservation=held, actual=2)
    assert list(LedgerAllocation.objects.filter(entry=entry).values_list("grant_id", "amount")) == [
        (expiring.pk, 2)
    ]
    with pytest.raises(QuotaExceeded) as exc:
        services.quota_reserve(user=user, amount=6, key="k2")
    assert exc.value.details == {"balance": 5, "held": 0, "needed": 6}
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (5, 0)
    assert_expired_once(account, [8])
    assert_invariant(account)


def test_credits_held_from_an_expired_grant_stay_held_while_the_rest_cannot_be_reserved(
    reserve_path, settle_path, user, funded
):
    account, expiring, held = hold_six_then_lapse(user, funded)
    second = services.quota_reserve(user=user, amount=5, key="k2")
    with pytest.raises(QuotaExceeded) as exc:
        services.quota_reserve(user=user, amount=1, key="k3")
    assert exc.value.details == {"balance": 0, "held": 11, "needed": 1}
    assert expiries(account) == [4]
    services.quota_settle(reservation=held, actual=6)
    services.quota_settle(reservation=second, actual=5)
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 0)
    assert list(account.grants.order_by("amount").values_list("amount", "remaining")) == [
        (5, 0),
        (10, 0),
    ]
    assert services.quota_expire_grants() == 0
    assert_invariant(account)


def test_balance_api_leaves_out_credits_of_an_expired_grant(api_client, user, funded):
    account = lapsed_ten_and_three(user, funded)
    api_client.force_login(user)
    response = api_client.get("/api/usage/balance")
    assert (response.status_code, response.json()["balance"]) == (200, 3)
    # A read forfeits nothing: the periodic run or the next reservation writes the expiry.
    assert expiries(account) == []


def test_usage_page_shows_an_expired_grant_as_expired_not_as_credits_left(client, user, funded):
    from .test_usage_page import table

    account = expiring_ten_and(user, funded, 3)
    services.quota_reserve(user=user, amount=4, key="k1")
    lapse(account.grants.get(amount=10))
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    assert '<dd id="usage-balance">3</dd>' in html
    rows = table(html, "usage-grants")
    assert [(left, expires.split(" ")[0]) for _s, _g, (left, _), (expires, _) in rows] == [
        ("4 held by turns in progress", "Expired"),
        ("3", "Never"),
    ]


def test_the_one_statement_reservation_holds_nothing_while_expired_credits_are_unforfeited(
    user, funded
):
    """PostgreSQL's fast path cannot forfeit: it declines, and the ORM path forfeits first."""
    require_postgres()
    account = lapsed_ten_and_three(user, funded)
    assert (
        services._reserve_one_statement(
            user=user,
            amount=1,
            key="k1",
            owner_type="",
            owner_id="",
            ttl_seconds=60,
            now=timezone.now(),
        )
        is None
    )
    assert not Reservation.objects.filter(user=user).exists()
    reservation = services.quota_reserve(user=user, amount=1, key="k1")
    assert reservation.amount == 1
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (2, 1)
    assert expiries(account) == [10]


def test_ledger_api_lists_the_expiry_of_an_expired_grants_credits_once_the_periodic_run_wrote_it(
    api_client, user, funded
):
    lapsed_ten_and_three(user, funded)
    api_client.force_login(user)

    def newest():
        entries = api_client.get("/api/usage/ledger?limit=1").json()["results"]
        return [(e["kind"], e["amount"], e["balance_after"], e["credits_after"]) for e in entries]

    assert newest() == [("grant", 3, 13, 13)]
    services.quota_issue_periodic_grants()
    assert newest() == [("expire", 10, 3, 3)]
