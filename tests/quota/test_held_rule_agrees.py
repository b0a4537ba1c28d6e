"""The held-credit rule is written twice: as an SQL expression per grant row
(services.grant_held_credits, which the grant admin sorts by) and as a pass over an account's
grants in draw order (services.grant_credits_held, which the usage page and forfeiture use).
They must agree on every state the services can reach: this checks them over seeded random
states with tied expiries, tied creation times, lapsed grants and turns reserved before and
after each expiry, so a change to one that the other does not follow fails here."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.quota import services
from apps.quota.models import GRANT_DRAW_ORDER, QuotaGrant, Reservation

pytestmark = pytest.mark.django_db

_EXPIRIES = [None, -30, -20, -10, 10, 20]  # minutes from now
_GRANTED = [-180, -120, -60]
_RESERVED = [-40, -25, -20, -15, -5, 0]


def _feasible(grants, reservations) -> bool:
    """Every turn can be paid from grants not expired when it reserved: the turns reserved at or
    after any moment need no more than the grants expiring after it hold (the grants each turn
    may draw from shrink as it reserves later, so this is all it takes)."""
    for _amount, at in reservations:
        due = sum(amount for amount, later in reservations if later >= at)
        supply = sum(left for left, expires, _ in grants if expires is None or expires > at)
        if due > supply:
            return False
    return True


def _random_state(rng):
    while True:
        grants = [
            (rng.randint(1, 10), rng.choice(_EXPIRIES), rng.choice(_GRANTED))
            for _ in range(rng.randint(1, 6))
        ]
        reservations = [
            (rng.randint(1, 10), rng.choice(_RESERVED)) for _ in range(rng.randint(0, 5))
        ]
        if _feasible(grants, reservations):
            return grants, reservations


@pytest.mark.parametrize("seed", range(8))
def test_the_sql_and_python_held_rules_agree_on_random_states(user, funded, seed):
    rng = random.Random(seed)
    account = funded(user)
    now = timezone.now()
    minutes = lambda m: now + timedelta(minutes=m)  # noqa: E731
    for state in range(25):
        QuotaGrant.objects.filter(account=account).delete()
        Reservation.objects.filter(account=account).delete()
        grants, reservations = _random_state(rng)
        for left, expires, granted in grants:
            grant = QuotaGrant.objects.create(
                account=account,
                amount=left + rng.randint(0, 3),
                remaining=left,
                source=QuotaGrant.Source.SYSTEM,
                expires_at=None if expires is None else minutes(expires),
            )
            QuotaGrant.objects.filter(pk=grant.pk).update(created_at=minutes(granted))
        for i, (amount, at) in enumerate(reservations):
            made = Reservation.objects.create(
                account=account, user=user, key=f"{state}-{i}", amount=amount, ttl_seconds=300,
                heartbeat_at=now, expires_at=minutes(5),
                # A closed one holds nothing: neither rule may count it.
                status=rng.choice([Reservation.Status.ACTIVE] * 3 + [Reservation.Status.RELEASED]),
            )  # fmt: skip
            Reservation.objects.filter(pk=made.pk).update(created_at=minutes(at))
        rows = list(
            QuotaGrant.objects.filter(account=account, remaining__gt=0)
            .annotate(held=services.grant_held_credits(), drawing=services.grant_drawing_reserved())
            .order_by(*GRANT_DRAW_ORDER)
        )
        python = services.grant_credits_held((g.pk, g.remaining, g.drawing) for g in rows)
        assert {g.pk: g.held for g in rows} == python, (seed, state, grants, reservations)
        active = Reservation.objects.filter(account=account, status=Reservation.Status.ACTIVE)
        assert sum(python.values()) == sum(active.values_list("amount", flat=True))
