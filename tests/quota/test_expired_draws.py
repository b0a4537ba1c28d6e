"""A turn draws only from grants that had not expired when it reserved its credits: a turn held
before a grant expired may still be paid from it, one reserved afterwards never is, so credits
that expired unused are never spent by a later turn and what is usable adds up."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.db import connection
from django.db.models import Sum
from django.utils import timezone

from apps.quota import selectors, services
from apps.quota.models import GRANT_DRAW_ORDER, LedgerAllocation, LedgerEntry, QuotaGrant

from .conftest import assert_invariant

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    """A clock the test moves on: reservations and grants are made at the time it shows."""
    clock = SimpleNamespace(now=timezone.now().replace(microsecond=0))
    monkeypatch.setattr(timezone, "now", lambda: clock.now)
    return clock


def drawn(reservation) -> list[tuple[int, int]]:
    """(grant amount, credits drawn from it) for each grant the reservation's charge drew on."""
    entry = LedgerEntry.objects.get(reservation=reservation)
    return [
        (allocation.grant.amount, allocation.amount)
        for allocation in LedgerAllocation.objects.filter(entry=entry).select_related("grant")
    ]


def remaining(account) -> list[tuple[int, int]]:
    return list(account.grants.order_by("amount").values_list("amount", "remaining"))


def usable(account) -> int:
    return selectors.quota_credits(account=account).balance


def assert_settled_on(path, settlements: int) -> None:
    """On PostgreSQL, each settlement went through the path under test: the one statement drew
    the charge itself (it did not fall back to the ORM path)."""
    if connection.vendor != "postgresql":
        assert path.hits == []
        return
    assert [hit is not None for hit in path.hits] == [path.mode == "one_statement"] * settlements


def assert_ledger_adds_up(account) -> None:
    """Grants less charges, expiries and withdrawals are what the grants still hold, and each
    charge's allocations add up to it."""
    assert_invariant(account)
    totals = dict(
        LedgerEntry.objects.filter(account=account)
        .values_list("kind")
        .annotate(total=Sum("amount"))
        .values_list("kind", "total")
    )
    spent = sum(totals.get(kind, 0) for kind in ("charge", "expire", "withdrawal"))
    assert totals["grant"] - spent == sum(g.remaining for g in account.grants.all())
    for entry in LedgerEntry.objects.filter(account=account, kind="charge"):
        assert entry.amount == sum(a.amount for a in entry.allocations.all())


def ten_expiring_and_a_hundred_lasting(user, funded, clock, *, first: int):
    """10 credits expiring in an hour and 100 that never expire; turn A holds `first`, the hour
    passes, then turn B holds 5. Returns (account, A, B)."""
    account = funded(user, 10, 100, expires=[clock.now + timedelta(hours=1), None])
    a = services.quota_reserve(user=user, amount=first, key="a")
    clock.now += timedelta(hours=1, minutes=1)
    b = services.quota_reserve(user=user, amount=5, key="b")
    return account, a, b


def test_a_turn_reserved_after_a_grant_expired_is_paid_from_lasting_credits(
    user, funded, clock, settle_path
):
    account, a, b = ten_expiring_and_a_hundred_lasting(user, funded, clock, first=10)
    assert usable(account) == 95
    services.quota_settle(reservation=b, actual=5)
    assert drawn(b) == [(100, 5)]
    services.quota_release(reservation=a, reason="cancelled")
    assert remaining(account) == [(10, 10), (100, 95)]
    assert usable(account) == 95
    assert services.quota_expire_grants() == 10
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (95, 0)
    assert remaining(account) == [(10, 0), (100, 95)]
    assert_settled_on(settle_path, 1)
    assert_ledger_adds_up(account)


def test_the_turn_held_before_the_expiry_settles_first_from_the_expired_grant(
    user, funded, clock, settle_path
):
    account, a, b = ten_expiring_and_a_hundred_lasting(user, funded, clock, first=10)
    services.quota_settle(reservation=a, actual=3)
    assert drawn(a) == [(10, 3)]
    assert usable(account) == 95
    services.quota_settle(reservation=b, actual=5)
    assert drawn(b) == [(100, 5)]
    assert usable(account) == 95
    assert services.quota_expire_grants() == 7
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (95, 0)
    assert remaining(account) == [(10, 0), (100, 95)]
    assert_settled_on(settle_path, 2)
    assert_ledger_adds_up(account)


def test_a_turn_charged_more_than_the_expired_grant_holds_takes_the_rest_from_lasting_credits(
    user, funded, clock, settle_path
):
    account, a, b = ten_expiring_and_a_hundred_lasting(user, funded, clock, first=15)
    assert usable(account) == 90
    services.quota_settle(reservation=b, actual=5)
    assert drawn(b) == [(100, 5)]
    services.quota_settle(reservation=a, actual=12)
    assert drawn(a) == [(10, 10), (100, 2)]
    assert remaining(account) == [(10, 0), (100, 93)]
    assert usable(account) == 93
    assert services.quota_expire_grants() == 0
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (93, 0)
    assert_settled_on(settle_path, 2)
    assert_ledger_adds_up(account)


def test_each_turn_draws_only_on_grants_that_had_not_expired_when_it_reserved(
    user, funded, clock, settle_path
):
    """5 credits expiring in an hour, 6 expiring in two and 100 lasting. Turn 1 holds 5, the
    first hour passes, turn 2 holds 8, the second passes, turn 3 holds 4."""
    account = funded(
        user,
        5,
        6,
        100,
        expires=[clock.now + timedelta(hours=1), clock.now + timedelta(hours=2), None],
    )
    first = services.quota_reserve(user=user, amount=5, key="1")
    clock.now += timedelta(hours=1, minutes=1)
    second = services.quota_reserve(user=user, amount=8, key="2")
    clock.now += timedelta(hours=1)
    third = services.quota_reserve(user=user, amount=4, key="3")
    # Turn 1 holds the 5, turn 2 the 6 and 2 lasting, turn 3 4 lasting; the 6's expired part
    # nobody holds is none.
    assert usable(account) == 94
    services.quota_settle(reservation=third, actual=4)
    assert drawn(third) == [(100, 4)]
    services.quota_release(reservation=first, reason="cancelled")
    # The 5 nobody can draw on any more are not usable; turn 2 may still draw the 6.
    assert usable(account) == 94
    grants = {g.amount: g.left for g in selectors.quota_grants_for(account=account)}
    assert grants == {5: 0, 6: 6, 100: 96}
    services.quota_settle(reservation=second, actual=2)
    assert drawn(second) == [(6, 2)]
    assert remaining(account) == [(5, 5), (6, 4), (100, 96)]
    assert usable(account) == 96
    assert services.quota_expire_grants() == 9
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (96, 0)
    assert remaining(account) == [(5, 0), (6, 0), (100, 96)]
    assert_settled_on(settle_path, 2)
    assert_ledger_adds_up(account)


def test_credits_held_by_a_turn_reserved_after_the_expiry_are_on_lasting_grants(
    user, funded, clock
):
    """What the grant admin and the usage page show held: turn B's 5 are lasting credits, so
    once A is released the expired 10 are held by nobody."""
    account, a, _b = ten_expiring_and_a_hundred_lasting(user, funded, clock, first=10)

    def shown():
        rows = (
            QuotaGrant.objects.filter(account=account)
            .annotate(
                held=services.grant_held_credits(),
                usable=services.grant_usable_credits(clock.now),
            )
            .order_by("amount")
            .values_list("amount", "held", "usable")
        )
        listed = {g.amount: g.left for g in selectors.quota_grants_for(account=account)}
        return list(rows), listed

    assert shown() == ([(10, 10, 0), (100, 5, 95)], {10: 10, 100: 100})
    services.quota_release(reservation=a, reason="cancelled")
    assert shown() == ([(10, 0, 0), (100, 5, 95)], {10: 0, 100: 100})


def test_expired_credits_left_unheld_when_the_earlier_turn_ends_are_forfeited_before_reserving(
    user, funded, clock
):
    account, a, b = ten_expiring_and_a_hundred_lasting(user, funded, clock, first=10)
    services.quota_release(reservation=a, reason="cancelled")
    services.quota_reserve(user=user, amount=95, key="c")
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 100)
    assert list(
        LedgerEntry.objects.filter(account=account, kind="expire").values_list("amount", flat=True)
    ) == [10]
    services.quota_settle(reservation=b, actual=5)
    assert drawn(b) == [(100, 5)]
    assert_ledger_adds_up(account)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_held_usable_and_forfeited_credits_agree_through_any_run_of_turns_and_expiries(
    user, funded, clock, settle_path, seed
):
    """Grants expiring at different times, turns reserved, settled and released as the clock
    passes their expiries: every settlement draws only on grants not expired when its turn
    reserved and never falls short; what the reads show held and usable agrees with the grant
    rows; and once every turn has ended and the expiry run has come, what is left is exactly
    the unexpired grants' credits."""
    import random

    rng = random.Random(seed)
    start = clock.now
    account = funded(
        user,
        *[rng.randint(3, 12) for _ in range(4)],
        40,
        expires=[start + timedelta(minutes=rng.choice([10, 20, 30, 40])) for _ in range(4)]
        + [None],
    )
    active = []
    settled = 0
    for step in range(40):
        clock.now += timedelta(minutes=rng.randint(0, 3))
        move = rng.random()
        if move < 0.45 or not active:
            credits = usable(account)
            if credits:
                active.append(
                    services.quota_reserve(
                        user=user, amount=rng.randint(1, min(credits, 9)), key=f"{seed}-{step}"
                    )
                )
        elif move < 0.8:
            reservation = active.pop(rng.randrange(len(active)))
            services.quota_settle(reservation=reservation, actual=rng.randint(0, 12))
            settled += 1
            made_at = reservation.created_at
            for allocation in LedgerEntry.objects.get(reservation=reservation).allocations.all():
                assert allocation.grant.expires_at is None or allocation.grant.expires_at > made_at
        elif move < 0.9:
            services.quota_release(reservation=active.pop(rng.randrange(len(active))), reason="x")
        else:
            services.quota_expire_grants()
        assert_reads_agree(account, clock.now)
        assert_ledger_adds_up(account)
    for reservation in active:
        services.quota_release(reservation=reservation, reason="x")
    clock.now += timedelta(hours=1)
    services.quota_expire_grants()
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (40 - lasting_spent(account), 0)
    assert usable(account) == account.balance
    assert_settled_on(settle_path, settled)
    assert_ledger_adds_up(account)


def lasting_spent(account) -> int:
    return 40 - account.grants.get(expires_at__isnull=True).remaining


def assert_reads_agree(account, now) -> None:
    """The held credits the grant admin shows are the ones the usage page lists, all of the
    reserved credits; the usable ones add up to what the balance read says."""
    rows = list(
        QuotaGrant.objects.filter(account=account, remaining__gt=0)
        .annotate(
            held=services.grant_held_credits(),
            usable=services.grant_usable_credits(now),
            drawing=services.grant_drawing_reserved(),
        )
        .order_by(*GRANT_DRAW_ORDER)
    )
    held = services.grant_credits_held((g.pk, g.remaining, g.drawing) for g in rows)
    assert {g.pk: g.held for g in rows} == held
    account.refresh_from_db()
    assert sum(held.values()) == account.reserved
    assert sum(g.usable for g in rows) == usable(account)
