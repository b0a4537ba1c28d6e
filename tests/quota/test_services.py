import importlib
from datetime import UTC, datetime, timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from apps.core.errors import Conflict, QuotaExceeded, ValidationFailed
from apps.core.models import AuditEvent
from apps.quota import services
from apps.quota.models import (
    LedgerAllocation,
    LedgerEntry,
    Plan,
    QuotaAccount,
    QuotaGrant,
    Reservation,
)

from .conftest import assert_invariant

pytestmark = pytest.mark.django_db


def test_account_created_lazily_with_free_plan_and_first_grant(make_user):
    user = make_user()
    assert not QuotaAccount.objects.filter(user=user).exists()
    account = services.quota_account_for(user=user)
    assert (account.plan.slug, account.plan.periodic_grant, account.plan.period) == (
        "free",
        100,
        "monthly",
    )
    assert (account.balance, account.reserved) == (100, 0)
    grant = account.grants.get()
    now = timezone.now()
    assert grant.source == "plan"
    assert grant.period_start == datetime(now.year, now.month, 1, tzinfo=UTC)
    assert grant.expires_at == grant.period_end
    # Second access returns the same row, no second grant.
    assert services.quota_account_for(user=user).pk == account.pk
    assert QuotaGrant.objects.filter(account=account).count() == 1
    assert_invariant(account)


def test_reserve_holds_credits_and_is_idempotent_per_user_and_key(make_user, funded):
    user = make_user()
    account = funded(user, 10)
    first = services.quota_reserve(
        user=user, amount=4, key="turn-1", owner_type="room_turn", owner_id="job-1"
    )
    again = services.quota_reserve(
        user=user, amount=4, key="turn-1", owner_type="room_turn", owner_id="job-1"
    )
    assert again.pk == first.pk
    account.refresh_from_db()
    # Held once, not twice.
    assert (account.balance, account.reserved) == (6, 4)
    with pytest.raises(Conflict) as exc:
        services.quota_reserve(
            user=user, amount=5, key="turn-1", owner_type="room_turn", owner_id="job-1"
        )
    assert exc.value.code == "reservation_key_conflict"
    assert exc.value.status == 409
    # Another user may use the same key independently.
    other = make_user()
    funded(other, 3)
    assert services.quota_reserve(user=other, amount=3, key="turn-1").pk != first.pk
    assert_invariant(account)


def test_reserve_inside_callers_transaction_rolls_back_with_it(make_user, funded):
    user = make_user()
    account = funded(user, 10)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.quota_reserve(user=user, amount=3, key="k")
        raise RuntimeError("job row insert failed")
    account.refresh_from_db()
    assert (account.balance, account.reserved, Reservation.objects.count()) == (10, 0, 0)


def test_insufficient_balance_is_402_with_clear_message_and_changes_nothing(make_user, funded):
    user = make_user()
    account = funded(user, 3)
    with pytest.raises(QuotaExceeded) as exc:
        services.quota_reserve(user=user, amount=5, key="big")
    assert exc.value.status == 402
    assert exc.value.code == "quota_exceeded"
    assert exc.value.message == "You have 3 credits available; this needs 5."
    assert exc.value.details == {"balance": 3, "held": 0, "needed": 5}
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (3, 0)
    # The failed key is free for a retry once credits arrive.
    assert not Reservation.objects.filter(key="big").exists()
    # Credits held by requests in progress are named: they come back when those finish.
    services.quota_reserve(user=user, amount=2, key="running")
    with pytest.raises(QuotaExceeded) as exc:
        services.quota_reserve(user=user, amount=5, key="big")
    assert exc.value.message == (
        "You have 1 credit available; this needs 5. "
        "2 more are held until your requests in progress finish."
    )
    assert exc.value.details == {"balance": 1, "held": 2, "needed": 5}


def test_a_reservation_may_hold_what_is_left_when_that_is_enough(make_user, funded):
    user = make_user()
    account = funded(user, 3)
    held = services.quota_reserve(user=user, amount=5, key="most", at_least=2)
    account.refresh_from_db()
    assert (held.amount, account.balance, account.reserved) == (3, 0, 3)
    with pytest.raises(QuotaExceeded) as exc:
        services.quota_reserve(user=user, amount=5, key="more", at_least=1)
    assert exc.value.details == {"balance": 0, "held": 3, "needed": 5}


def test_replaying_a_reservation_that_held_what_was_left_returns_it(make_user, funded):
    user = make_user()
    account = funded(user, 3)
    held = services.quota_reserve(user=user, amount=5, key="most", at_least=2)
    again = services.quota_reserve(user=user, amount=5, key="most", at_least=2)
    account.refresh_from_db()
    assert (again.pk, again.amount, account.balance, account.reserved) == (held.pk, 3, 0, 3)
    with pytest.raises(Conflict) as exc:
        services.quota_reserve(user=user, amount=2, key="most", at_least=1)
    assert exc.value.code == "reservation_key_conflict"


@pytest.mark.parametrize("amount", [0, -1, 1.5, True])
def test_reserve_rejects_non_positive_or_non_integer_amounts(make_user, funded, amount):
    user = make_user()
    funded(user, 3)
    with pytest.raises(ValidationFailed):
        services.quota_reserve(user=user, amount=amount, key="k")
    assert Reservation.objects.count() == 0


def test_settle_charges_min_actual_reserved_from_earliest_expiring_grants(
    make_user, funded, settle_path
):
    user = make_user()
    now = timezone.now()
    # Grants: 5 never expiring, 3 expiring in 2 days, 4 expiring tomorrow.
    account = funded(
        user, 5, 3, 4, expires=[None, now + timedelta(days=2), now + timedelta(days=1)]
    )
    never, later, soon = account.grants.order_by("created_at")
    reservation = services.quota_reserve(user=user, amount=10, key="turn")
    entry = services.quota_settle(reservation=reservation, actual=25)
    # Capped at the reservation, drawn soon -> later -> never.
    assert (entry.kind, entry.amount, entry.balance_after) == ("charge", 10, 2)
    assert list(entry.allocations.values_list("grant_id", "amount")) == [
        (soon.pk, 4),
        (later.pk, 3),
        (never.pk, 3),
    ]
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (2, 0)
    reservation.refresh_from_db()
    assert (reservation.status, reservation.settled_amount) == ("settled", 10)
    assert_invariant(account)
    if connection.vendor == "postgresql":  # elsewhere only the ORM path exists
        fast = settle_path.mode == "one_statement"
        assert [hit is not None for hit in settle_path.hits] == [fast]


def test_settle_below_reservation_returns_the_rest(make_user, funded, settle_path):
    user = make_user()
    account = funded(user, 10)
    reservation = services.quota_reserve(user=user, amount=6, key="turn")
    entry = services.quota_settle(reservation=reservation, actual=2)
    account.refresh_from_db()
    assert (entry.amount, account.balance, account.reserved) == (2, 8, 0)
    assert_invariant(account)


def test_settle_twice_does_not_charge_twice(make_user, funded, settle_path):
    user = make_user()
    account = funded(user, 10)
    reservation = services.quota_reserve(user=user, amount=5, key="turn")
    first = services.quota_settle(reservation=reservation, actual=4)
    # A recovery run settles again, even with a different figure: the first charge stands.
    stale_copy = Reservation.objects.get(pk=reservation.pk)
    second = services.quota_settle(reservation=stale_copy, actual=5)
    assert second.pk == first.pk
    # The fast path settles once and finds nothing active the second time.
    if connection.vendor == "postgresql":
        fast = settle_path.mode == "one_statement"
        assert [hit is not None for hit in settle_path.hits] == [fast, False]
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (6, 0)
    assert LedgerEntry.objects.filter(account=account, kind="charge").count() == 1
    assert LedgerAllocation.objects.count() == 1
    # Re-reserving with the same key returns the settled reservation, not a new hold.
    again = services.quota_reserve(user=user, amount=5, key="turn")
    assert (again.pk, again.status) == (reservation.pk, "settled")
    account.refresh_from_db()
    assert account.balance == 6


def test_settle_zero_records_an_empty_charge(make_user, funded, settle_path):
    user = make_user()
    account = funded(user, 4)
    entry = services.quota_settle(
        reservation=services.quota_reserve(user=user, amount=4, key="k"), actual=0
    )
    account.refresh_from_db()
    assert (entry.amount, entry.allocations.count(), account.balance) == (0, 0, 4)


def test_release_returns_credits_and_is_idempotent(make_user, funded):
    user = make_user()
    account = funded(user, 10)
    reservation = services.quota_reserve(user=user, amount=7, key="turn")
    services.quota_release(reservation=reservation, reason="cancelled")
    services.quota_release(reservation=reservation, reason="cancelled again")
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (10, 0)
    assert (reservation.status, reservation.close_reason) == ("released", "cancelled")
    # A released reservation cannot be charged afterwards, nor heartbeated.
    with pytest.raises(Conflict) as exc:
        services.quota_settle(reservation=reservation, actual=1)
    assert exc.value.code == "reservation_closed"
    with pytest.raises(Conflict):
        services.quota_reservation_heartbeat(reservation=reservation)
    assert LedgerEntry.objects.filter(kind="charge").count() == 0


def test_release_after_settle_refuses_and_keeps_the_charge(make_user, funded, settle_path):
    user = make_user()
    account = funded(user, 10)
    reservation = services.quota_reserve(user=user, amount=5, key="turn")
    services.quota_settle(reservation=reservation, actual=5)
    with pytest.raises(Conflict):
        services.quota_release(reservation=reservation, reason="late cancel")
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (5, 0)


def _expire(reservation, seconds_ago=1):
    Reservation.objects.filter(pk=reservation.pk).update(
        expires_at=timezone.now() - timedelta(seconds=seconds_ago)
    )


def test_reaper_frees_lapsed_reservations_but_never_a_live_owners(make_user, funded):
    user = make_user()
    account = funded(user, 10)
    live = services.quota_reserve(
        user=user, amount=2, key="a", owner_type="room_turn", owner_id="job-live"
    )
    dead = services.quota_reserve(
        user=user, amount=3, key="b", owner_type="room_turn", owner_id="job-dead"
    )
    ownerless = services.quota_reserve(user=user, amount=1, key="c")
    services.quota_reserve(  # fresh: heartbeat within its TTL
        user=user, amount=1, key="d", owner_type="room_turn", owner_id="job-fresh"
    )
    for r in (live, dead, ownerless):
        _expire(r)
    asked = []

    def is_owner_live(owner_type, owner_id):
        asked.append((owner_type, owner_id))
        return owner_id == "job-live"

    assert services.quota_reap_expired(is_owner_live=is_owner_live) == 2
    statuses = dict(Reservation.objects.values_list("key", "status"))
    assert statuses == {"a": "active", "b": "expired", "c": "expired", "d": "active"}
    # A fresh heartbeat means the owner is not even asked.
    assert sorted(asked) == [("room_turn", "job-dead"), ("room_turn", "job-live")]
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (7, 3)
    assert_invariant(account)


def test_reaper_gets_past_more_live_owners_than_its_batch(make_user, funded):
    # Turns queued behind an outage keep their lapsed holds; an abandoned hold among them is
    # still freed, however many live ones there are.
    user = make_user()
    account = funded(user, 10)
    # The abandoned hold is the oldest but lapsed last: behind the live ones either way.
    for owner, lapsed_ago in [
        ("job-dead", 1),
        ("job-live-1", 30),
        ("job-live-2", 20),
        ("job-live-3", 10),
    ]:
        reservation = services.quota_reserve(
            user=user, amount=1, key=owner, owner_type="room_turn", owner_id=owner
        )
        _expire(reservation, seconds_ago=lapsed_ago)

    def is_owner_live(owner_type, owner_id):
        return owner_id != "job-dead"

    assert services.quota_reap_expired(is_owner_live=is_owner_live, limit=2) == 1
    assert Reservation.objects.get(key="job-dead").status == "expired"
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (7, 3)
    assert_invariant(account)


def test_a_liveness_check_that_fails_keeps_its_hold_and_stops_no_other(make_user, funded, caplog):
    user = make_user()
    account = funded(user, 10)
    for owner, lapsed_ago in [("job-unknown", 20), ("job-dead", 10)]:
        reservation = services.quota_reserve(
            user=user, amount=1, key=owner, owner_type="room_turn", owner_id=owner
        )
        _expire(reservation, seconds_ago=lapsed_ago)

    def is_owner_live(owner_type, owner_id):
        if owner_id == "job-unknown":
            raise ValueError("badly formed hexadecimal UUID string")
        return False

    assert services.quota_reap_expired(is_owner_live=is_owner_live) == 1
    statuses = dict(Reservation.objects.values_list("key", "status"))
    assert statuses == {"job-unknown": "active", "job-dead": "expired"}
    assert "Could not tell whether room_turn job-unknown is live" in caplog.text
    account.refresh_from_db()
    assert_invariant(account)


def test_heartbeat_keeps_a_reservation_from_the_reaper(make_user, funded):
    user = make_user()
    funded(user, 10)
    reservation = services.quota_reserve(user=user, amount=2, key="a", ttl_seconds=60)
    _expire(reservation)
    services.quota_reservation_heartbeat(reservation=reservation)
    assert reservation.expires_at > timezone.now() + timedelta(seconds=55)
    assert services.quota_reap_expired(is_owner_live=lambda *a: False) == 0
    reservation.refresh_from_db()
    assert reservation.status == "active"


def test_reaper_uses_settings_registry_and_treats_unregistered_types_as_live(
    make_user, funded, settings
):
    user = make_user()
    account = funded(user, 10)
    registered = services.quota_reserve(
        user=user, amount=2, key="a", owner_type="probe", owner_id="dead-1"
    )
    unknown = services.quota_reserve(
        user=user, amount=3, key="b", owner_type="mystery", owner_id="x"
    )
    _expire(registered)
    _expire(unknown)
    settings.SAGASMITH_QUOTA_OWNER_LIVENESS = {"probe": "tests.quota.liveness.alive_if_prefixed"}
    assert services.quota_reap_expired() == 1
    registered.refresh_from_db()
    unknown.refresh_from_db()
    assert (registered.status, unknown.status) == ("expired", "active")
    account.refresh_from_db()
    assert account.reserved == 3


def test_reaped_reservation_cannot_be_settled(make_user, funded, settle_path):
    user = make_user()
    account = funded(user, 5)
    reservation = services.quota_reserve(user=user, amount=5, key="a")
    _expire(reservation)
    services.quota_reap_expired(is_owner_live=lambda *a: False)
    with pytest.raises(Conflict):
        services.quota_settle(reservation=reservation, actual=5)
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (5, 0)


def _assert_plan_grant_refused(account, **period):
    """The database refuses a plan grant for `period`."""
    with pytest.raises(IntegrityError), transaction.atomic():
        QuotaGrant.objects.create(account=account, amount=1, remaining=1, source="plan", **period)


def test_periodic_grant_is_idempotent_per_period(make_user):
    user = make_user()
    account = services.quota_account_for(user=user)
    june = datetime(2031, 6, 15, 12, tzinfo=UTC)
    assert services.quota_issue_periodic_grants(now=june) == 1
    assert services.quota_issue_periodic_grants(now=june) == 0
    assert services.quota_issue_periodic_grants(now=june + timedelta(days=10)) == 0
    july = datetime(2031, 7, 1, 0, tzinfo=UTC)
    assert services.quota_issue_periodic_grants(now=july) == 1
    starts = list(
        account.grants.filter(period_start__year=2031)
        .order_by("period_start")
        .values_list("period_start", "period_end")
    )
    assert starts == [
        (datetime(2031, 6, 1, tzinfo=UTC), datetime(2031, 7, 1, tzinfo=UTC)),
        (datetime(2031, 7, 1, tzinfo=UTC), datetime(2031, 8, 1, tzinfo=UTC)),
    ]
    # The unique constraint backs the check, in case two beat runs race.
    _assert_plan_grant_refused(
        account,
        period_start=datetime(2031, 7, 1, tzinfo=UTC),
        period_end=datetime(2031, 8, 1, tzinfo=UTC),
    )
    # A plan grant always names its period: without an end, the constraint could not hold.
    _assert_plan_grant_refused(account, period_start=datetime(2031, 9, 1, tzinfo=UTC))


def test_expiry_forfeits_only_credits_not_backing_reservations(make_user, funded):
    user = make_user()
    now = timezone.now()
    account = funded(user, 10, 5, expires=[now + timedelta(hours=1), None])
    expiring = account.grants.get(amount=10)
    reservation = services.quota_reserve(user=user, amount=12, key="a")  # balance 3 left
    later = now + timedelta(hours=2)
    # The hold of 12 is paid from the lapsed grant first: all 10 of its credits back it.
    assert services.quota_expire_grants(now=later) == 0
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (3, 12)
    assert_invariant(account)
    # The turn settles at 8: drawn from the lapsed grant first (it still backs the hold).
    entry = services.quota_settle(reservation=reservation, actual=8)
    assert list(entry.allocations.values_list("grant_id", "amount")) == [(expiring.pk, 8)]
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (7, 0)
    # What the turn left of the lapsed grant goes at the next run; the lasting 5 stay.
    assert services.quota_expire_grants(now=later) == 2
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (5, 0)
    assert_invariant(account)
    assert list(
        LedgerEntry.objects.filter(account=account)
        .order_by("id")
        .values_list("kind", "amount", "balance_after")
    ) == [("grant", 10, 10), ("grant", 5, 15), ("charge", 8, 7), ("expire", 2, 5)]


def test_expiry_leaves_the_credits_a_turn_holds_on_the_lapsed_grant(make_user, funded):
    # A turn holds the 10 credits of a grant that lapses; the user also has 10 that never do.
    user = make_user()
    now = timezone.now()
    account = funded(user, 10, 10, expires=[now + timedelta(hours=1), None])
    lapsing, lasting = (
        account.grants.get(expires_at__isnull=False),
        account.grants.get(expires_at__isnull=True),
    )
    reservation = services.quota_reserve(user=user, amount=10, key="turn")
    assert services.quota_expire_grants(now=now + timedelta(hours=2)) == 0
    # The turn pays with the lapsed grant's credits; the lasting grant stays whole.
    entry = services.quota_settle(reservation=reservation, actual=10)
    assert list(entry.allocations.values_list("grant_id", "amount")) == [(lapsing.pk, 10)]
    lasting.refresh_from_db()
    account.refresh_from_db()
    assert (lasting.remaining, account.balance, account.reserved) == (10, 10, 0)
    assert_invariant(account)


def test_plan_period_bounds():
    monthly = Plan(period="monthly")
    assert services.plan_period_bounds(plan=monthly, at=datetime(2030, 12, 31, 23, tzinfo=UTC)) == (
        datetime(2030, 12, 1, tzinfo=UTC),
        datetime(2031, 1, 1, tzinfo=UTC),
    )
    weekly = Plan(period="weekly")
    # 2030-01-02 is a Wednesday; weeks start on Monday.
    assert services.plan_period_bounds(plan=weekly, at=datetime(2030, 1, 2, 5, tzinfo=UTC)) == (
        datetime(2029, 12, 31, tzinfo=UTC),
        datetime(2030, 1, 7, tzinfo=UTC),
    )
    assert services.plan_period_bounds(plan=Plan(period="none"), at=timezone.now()) is None


def test_staff_grant_is_audited(make_user, funded):
    staff = make_user(is_staff=True)
    account = funded(make_user(), 1)
    grant = services.quota_grant(
        account=account, amount=50, source="staff", actor=staff, note="apology"
    )
    event = AuditEvent.objects.get(action="quota.grant", actor=staff)
    assert event.subject_id == str(account.pk)
    assert event.details == {
        "grant": str(grant.pk),
        "user": str(account.user_id),
        "amount": 50,
        "source": "staff",
        "expires_at": None,
        "note": "apology",
    }
    account.refresh_from_db()
    assert account.balance == 51


def test_withdrawal_and_expiry_are_separate_ledger_kinds(make_user, funded):
    user = make_user()
    now = timezone.now()
    account = funded(user, 10, 5, expires=[now + timedelta(hours=1), None])
    services.quota_grant_withdraw(grant=account.grants.get(amount=5), actor=None, note="typo")
    assert services.quota_expire_grants(now=now + timedelta(hours=2)) == 10
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 0)
    assert list(
        LedgerEntry.objects.filter(account=account)
        .order_by("id")
        .values_list("kind", "amount", "balance_after", "description")
    ) == [
        ("grant", 10, 10, "system"),
        ("grant", 5, 15, "system"),
        ("withdrawal", 5, 10, "Withdrawn by staff: typo"),
        ("expire", 10, 0, "Unused credits expired"),
    ]
    assert_invariant(account)


def test_migration_opens_an_account_with_its_plan_grant_for_each_user_without_one(
    make_user, zero_plan
):
    from django.apps import apps

    migration = importlib.import_module("apps.quota.migrations.0004_quota_account_for_every_user")
    had = services.quota_account_for(user=make_user("had@example.test"), plan=zero_plan)
    lacking = make_user("lacking@example.test")
    assert not QuotaAccount.objects.filter(user=lacking).exists()
    migration.open_missing_accounts(apps, None)
    migration.open_missing_accounts(apps, None)  # a second run finds nothing to do
    account = QuotaAccount.objects.get(user=lacking)
    # What first use would have given it: the default plan and this period's grant.
    assert (account.plan.slug, account.balance, account.reserved) == ("free", 100, 0)
    grant = account.grants.get()
    now = timezone.now()
    start = datetime(now.year, now.month, 1, tzinfo=UTC)
    assert (grant.source, grant.amount, grant.remaining, grant.period_start, grant.note) == (
        "plan",
        100,
        100,
        start,
        f"Free plan, period from {start.date().isoformat()}",
    )
    assert grant.expires_at == grant.period_end
    assert list(account.ledger.values_list("kind", "amount", "balance_after", "grant")) == [
        ("grant", 100, 100, grant.pk)
    ]
    assert_invariant(account)
    had.refresh_from_db()
    assert (had.plan_id, had.balance, had.grants.count()) == (zero_plan.pk, 0, 0)
    assert QuotaAccount.objects.count() == 2
