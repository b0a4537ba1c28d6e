"""One expiry rule: PostgreSQL's one-statement reservation decides whether an account's balance
counts expired credits with the same expression the reads and the ORM path use
(services.lapsed_grants), so the balance shown is what either path can reserve."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.db import connection
from django.utils import timezone

from apps.quota import selectors, services
from apps.quota.models import LedgerEntry, QuotaGrant, Reservation
from tests.conftest import require_postgres

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["one_statement", "orm"])
def reserve_path(request, monkeypatch):
    """Runs a test on both reservation paths; `hits` records what the fast path returned."""
    path = SimpleNamespace(mode=request.param, hits=[])
    fast = services._reserve_one_statement

    def spy(**kwargs):
        reservation = None if request.param == "orm" else fast(**kwargs)
        path.hits.append(reservation)
        return reservation

    monkeypatch.setattr(services, "_reserve_one_statement", spy)
    return path


@pytest.fixture
def frozen(monkeypatch):
    """Now stands still at a whole second, so a grant can expire exactly at it."""
    now = timezone.now().replace(microsecond=0)
    monkeypatch.setattr(timezone, "now", lambda: now)
    return now


@pytest.fixture
def rule_an_hour_early(monkeypatch):
    """The expiry rule changed: credits count as expired an hour before their grant's expiry."""
    rule = services.lapsed_grants
    monkeypatch.setattr(services, "lapsed_grants", lambda now: rule(now + timedelta(hours=1)))
    services._reserve_sql.cache_clear()
    yield
    monkeypatch.undo()
    services._reserve_sql.cache_clear()


def test_the_reservation_statement_follows_the_expiry_rule_the_reads_use(
    user, funded, rule_an_hour_early
):
    require_postgres()
    account = funded(user, 10, 3, expires=[timezone.now() + timedelta(minutes=30), None])
    # Under the changed rule the 10 no longer count, in the balance read and in the statement.
    assert selectors.quota_credits(account=account).balance == 3
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
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (13, 0)


def test_credits_expiring_at_the_moment_of_reserving_are_expired_on_either_path(
    user, funded, frozen, reserve_path
):
    account = funded(user, 10, 3, expires=[frozen, None])
    assert selectors.quota_credits(account=account).balance == 3
    reservation = services.quota_reserve(user=user, amount=3, key="k1")
    assert reservation.amount == 3
    # The fast path (PostgreSQL) declines: it cannot forfeit, and the ORM path does first.
    assert took_fast_path(reserve_path) == on_postgres([False])
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 3)
    assert list(
        LedgerEntry.objects.filter(account=account, kind="expire").values_list("amount", flat=True)
    ) == [10]


def test_credits_expiring_a_microsecond_after_reserving_are_reserved_as_they_are(
    user, funded, frozen, reserve_path
):
    account = funded(user, 10, 3, expires=[frozen + timedelta(microseconds=1), None])
    assert selectors.quota_credits(account=account).balance == 13
    reservation = services.quota_reserve(user=user, amount=13, key="k1")
    assert reservation.amount == 13
    assert took_fast_path(reserve_path) == on_postgres([reserve_path.mode == "one_statement"])
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 13)
    assert not LedgerEntry.objects.filter(account=account, kind="expire").exists()
    assert QuotaGrant.objects.filter(account=account).count() == 2


def test_expired_credits_all_held_by_turns_leave_the_fast_path_open(
    user, funded, frozen, reserve_path
):
    account = funded(user, 10, 5, expires=[frozen + timedelta(minutes=1), None])
    services.quota_reserve(user=user, amount=10, key="k1")
    QuotaGrant.objects.filter(account=account, amount=10).update(expires_at=frozen)
    # The turn reserved before the expiry.
    Reservation.objects.filter(key="k1").update(created_at=frozen - timedelta(minutes=1))
    # All 10 expired credits are held: the balance is usable as it stands.
    assert selectors.quota_credits(account=account).balance == 5
    services.quota_reserve(user=user, amount=5, key="k2")
    fast = reserve_path.mode == "one_statement"
    assert took_fast_path(reserve_path) == on_postgres([fast, fast])
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 15)


def took_fast_path(path) -> list[bool] | None:
    """Whether each reservation went through PostgreSQL's one statement; None elsewhere."""
    if connection.vendor != "postgresql":
        assert path.hits == []
        return None
    return [hit is not None for hit in path.hits]


def on_postgres(expected: list[bool]) -> list[bool] | None:
    return expected if connection.vendor == "postgresql" else None
