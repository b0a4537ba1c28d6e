"""Concurrency on real PostgreSQL: row locks and conditional UPDATEs, not SQLite's global lock."""

import threading

import pytest
from django.db import close_old_connections, connections

from apps.core.errors import QuotaExceeded
from apps.quota import services
from apps.quota.models import LedgerEntry, Plan, QuotaAccount, Reservation
from tests.conftest import require_postgres

from .conftest import assert_invariant


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

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
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

    def worker() -> None:
        close_old_connections()
        try:
            start.wait()
            reservation = services.quota_reserve(user=user, amount=3, key="same-turn")
            with lock:
                ids.append(reservation.pk)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    # Everyone got the one reservation back, and the credits were held exactly once.
    assert len(ids) == 16 and len(set(ids)) == 1
    assert Reservation.objects.filter(user=user).count() == 1
    account = QuotaAccount.objects.get(pk=account.pk)
    assert (account.balance, account.reserved) == (7, 3)
    assert_invariant(account)
