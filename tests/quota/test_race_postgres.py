"""Concurrency on real PostgreSQL: row locks and conditional UPDATEs, not SQLite's global lock."""

import threading

import pytest
from django.db import close_old_connections, connections

from apps.core.errors import QuotaExceeded
from apps.quota import services
from apps.quota.models import LedgerEntry, Plan, QuotaAccount, Reservation
from tests.conftest import require_postgres

from .conftest import assert_invariant


def run_concurrently(worker, count: int) -> None:
    """Run worker(0) .. worker(count - 1), each on its own thread, and wait for them all."""
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_32_concurrent_reservations_of_1_against_10(make_user):
    require_postgres()
    plan = Plan.objects.create(slug="zero", name="Zero", periodic_grant=0, period="none")
    user = make_user()
    account = services.quota_account_for(user=user, plan=plan)
    services.quota_grant(account=account, amount=10, source="system")
    start = threading.Barrier(32)
    # Settling returns unused credits, so nobody settles until every reservation attempt is done.
    reserved_all = threading.Barrier(32)
    outcomes: list[tuple[str, int]] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        close_old_connections()
        try:
            start.wait()
            try:
                reservation = services.quota_reserve(user=user, amount=1, key=f"k{i}")
            except QuotaExceeded:
                reservation = None
            reserved_all.wait()
            if reservation is None:
                with lock:
                    outcomes.append(("402", 0))
                return
            # Odd workers use their credit, even ones finish without using it.
            entry = services.quota_settle(reservation=reservation, actual=i % 2)
            with lock:
                outcomes.append(("ok", entry.amount))
        finally:
            connections.close_all()

    run_concurrently(worker, 32)
    assert len(outcomes) == 32
    wins = [amount for status, amount in outcomes if status == "ok"]
    assert len(wins) == 10
    assert sum(1 for status, _ in outcomes if status == "402") == 22
    charged = sum(wins)
    settled = sum(
        Reservation.objects.filter(status="settled").values_list("settled_amount", flat=True)
    )
    ledger = sum(LedgerEntry.objects.filter(kind="charge").values_list("amount", flat=True))
    assert ledger == settled == charged
    assert Reservation.objects.filter(status="settled").count() == 10
    account = QuotaAccount.objects.get(pk=account.pk)
    assert (account.balance, account.reserved) == (10 - charged, 0)
    assert_invariant(account)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_16_concurrent_reserves_with_one_key_hold_credits_once(make_user):
    require_postgres()
    plan = Plan.objects.create(slug="zero", name="Zero", periodic_grant=0, period="none")
    user = make_user()
    account = services.quota_account_for(user=user, plan=plan)
    services.quota_grant(account=account, amount=10, source="system")
    start = threading.Barrier(16)
    ids: list = []
    lock = threading.Lock()

    def worker(_i: int) -> None:
        close_old_connections()
        try:
            start.wait()
            reservation = services.quota_reserve(user=user, amount=3, key="same-turn")
            with lock:
                ids.append(reservation.pk)
        finally:
            connections.close_all()

    run_concurrently(worker, 16)
    # Everyone got the one reservation back, and the credits were held exactly once.
    assert len(ids) == 16 and len(set(ids)) == 1
    assert Reservation.objects.filter(user=user).count() == 1
    account = QuotaAccount.objects.get(pk=account.pk)
    assert (account.balance, account.reserved) == (7, 3)
    assert_invariant(account)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_settle_while_a_grant_arrives_and_an_old_one_expires(make_user):
    """The one-statement settlement reads one snapshot: a grant committed while it waits for the
    account lock is not in it. It must then write nothing and let the ORM path settle."""
    require_postgres()
    import time
    from datetime import timedelta

    from django.db import transaction
    from django.utils import timezone

    from apps.quota.models import QuotaGrant

    plan = Plan.objects.create(slug="zero", name="Zero", periodic_grant=0, period="none")
    user = make_user()
    account = services.quota_account_for(user=user, plan=plan)
    old = services.quota_grant(
        account=account, amount=10, source="system", expires_at=timezone.now() + timedelta(days=1)
    )
    reservation = services.quota_reserve(user=user, amount=5, key="turn")
    locked, settled = threading.Event(), []

    def settle() -> None:
        close_old_connections()
        try:
            locked.wait(5)
            settled.append(services.quota_settle(reservation=reservation, actual=4))
        finally:
            connections.close_all()

    thread = threading.Thread(target=settle)
    thread.start()
    with transaction.atomic():
        # Another writer holds the account: a new grant, and the old grant's credits forfeited
        # the way expiry takes them, so only the new grant can pay.
        QuotaAccount.objects.select_for_update().get(pk=account.pk)
        locked.set()
        time.sleep(0.3)  # the settlement is now waiting on the account lock
        QuotaGrant.objects.create(account=account, amount=10, remaining=10, source="system")
        QuotaGrant.objects.filter(pk=old.pk).update(remaining=0)
        # Balance 5 + 10 new - 10 forfeited (expiry takes min(remaining, balance)); 5 reserved.
        QuotaAccount.objects.filter(pk=account.pk).update(balance=5)
    thread.join(10)
    (entry,) = settled
    assert (entry.amount, entry.balance_after) == (4, 6)
    assert_invariant(account)
    assert LedgerEntry.objects.filter(reservation_id=reservation.pk).count() == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_upgrades_grant_the_largest_allowance_once(make_user):
    require_postgres()
    from django.db.models import Sum

    small = Plan.objects.create(slug="small", name="Small", periodic_grant=100)
    plans = [
        Plan.objects.create(slug="pro", name="Pro", periodic_grant=500),
        Plan.objects.create(slug="max", name="Max", periodic_grant=1000),
    ]
    account = services.quota_account_for(user=make_user(), plan=small)
    start = threading.Barrier(8)
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        close_old_connections()
        try:
            start.wait()
            services.quota_account_plan_change(
                account=QuotaAccount.objects.get(pk=account.pk), plan=plans[i % 2], actor=None
            )
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)
        finally:
            connections.close_all()

    run_concurrently(worker, 8)
    assert errors == []
    # Whatever order the changes ran in, the period got the largest plan's allowance once.
    granted = account.grants.aggregate(total=Sum("amount"))["total"]
    account = QuotaAccount.objects.get(pk=account.pk)
    assert (granted, account.balance) == (1000, 1000)
    assert_invariant(account)
