"""A settlement never charges more than its reservation holds, and a worker and the recovery
sweep settling or releasing one reservation at the same moment leave exactly one outcome."""

import threading

import pytest
from django.db import IntegrityError, close_old_connections, connections, transaction

from apps.core.errors import Conflict
from apps.quota import services
from apps.quota.models import LedgerAllocation, LedgerEntry, Plan, QuotaAccount, Reservation
from tests.conftest import require_postgres

from .conftest import assert_invariant

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def funded_reservation(make_user, *, balance: int, amount: int):
    plan = Plan.objects.create(slug="zero", name="Zero", periodic_grant=0, period="none")
    user = make_user()
    account = services.quota_account_for(user=user, plan=plan)
    services.quota_grant(account=account, amount=balance, source="system")
    return account, services.quota_reserve(user=user, amount=amount, key="turn")


def all_at_once(*workers) -> list:
    """Each worker on its own thread and connection, started together; their outcomes (a
    result or the exception raised), in the workers' order."""
    start = threading.Barrier(len(workers))
    outcomes: list = [None] * len(workers)

    def run(i: int) -> None:
        close_old_connections()
        try:
            start.wait()
            outcomes[i] = workers[i]()
        except Exception as exc:  # noqa: BLE001 - the outcome under test
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(workers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


USAGES = (3, 9, 4, 12, 1, 7, 5, 2)


def test_settlements_racing_on_one_reservation_charge_once_within_it(make_user):
    require_postgres()
    account, reservation = funded_reservation(make_user, balance=10, amount=5)
    # The worker and recovery, each with its own copy and its own count of the usage.
    outcomes = all_at_once(
        *(
            lambda actual=actual: services.quota_settle(
                reservation=Reservation.objects.get(pk=reservation.pk), actual=actual
            )
            for actual in USAGES
        )
    )
    assert all(isinstance(o, LedgerEntry) for o in outcomes), outcomes
    assert len({o.pk for o in outcomes}) == 1
    [charge] = LedgerEntry.objects.filter(account=account, kind="charge")
    # One racer's usage won, capped at the reservation; which one is the race's to decide.
    assert charge.amount in {min(actual, 5) for actual in USAGES}
    reservation.refresh_from_db()
    assert (reservation.status, reservation.settled_amount) == ("settled", charge.amount)
    assert sum(LedgerAllocation.objects.values_list("amount", flat=True)) == charge.amount
    account = QuotaAccount.objects.get(pk=account.pk)
    assert (account.balance, account.reserved) == (10 - charge.amount, 0)
    assert_invariant(account)


def test_a_release_racing_settlements_leaves_one_outcome(make_user):
    require_postgres()
    account, reservation = funded_reservation(make_user, balance=10, amount=5)

    def settle():
        return services.quota_settle(
            reservation=Reservation.objects.get(pk=reservation.pk), actual=4
        )

    def release():
        return services.quota_release(
            reservation=Reservation.objects.get(pk=reservation.pk), reason="cancelled"
        )

    outcomes = all_at_once(settle, release, settle, release, settle, release)
    reservation.refresh_from_db()
    charges = list(LedgerEntry.objects.filter(account=account, kind="charge"))
    account = QuotaAccount.objects.get(pk=account.pk)
    if reservation.status == "settled":
        assert [c.amount for c in charges] == [4]
        assert all(isinstance(o, LedgerEntry) for o in outcomes[0::2])
        assert all(
            isinstance(o, Conflict) and o.code == "reservation_closed" for o in outcomes[1::2]
        )
        assert (account.balance, account.reserved) == (6, 0)
    else:
        assert reservation.status == "released"
        assert charges == []
        assert all(
            isinstance(o, Conflict) and o.code == "reservation_closed" for o in outcomes[0::2]
        )
        assert all(isinstance(o, Reservation) for o in outcomes[1::2])
        assert (account.balance, account.reserved) == (10, 0)
    assert_invariant(account)


def test_the_database_refuses_a_charge_beyond_the_reservation(make_user):
    _account, reservation = funded_reservation(make_user, balance=10, amount=5)
    services.quota_settle(reservation=reservation, actual=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        Reservation.objects.filter(pk=reservation.pk).update(settled_amount=6)
    reservation.refresh_from_db()
    assert reservation.settled_amount == 5
