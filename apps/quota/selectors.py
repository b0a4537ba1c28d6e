"""Quota reads for the usage API and page (each reads only the caller's own account)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import (
    BigIntegerField,
    Case,
    F,
    Prefetch,
    QuerySet,
    Sum,
    Value,
    When,
    Window,
)
from django.db.models.expressions import RowRange
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from .models import (
    GRANT_DRAW_ORDER,
    LedgerAllocation,
    LedgerEntry,
    Plan,
    QuotaAccount,
    QuotaGrant,
    Reservation,
)
from .services import (
    DEFAULT_PLAN,
    grant_credits_held,
    grant_drawing_reserved,
    plan_grant_period,
    usable_credits,
)

LEDGER_PAGE_MAX = 100


def quota_account_read(*, user, now: datetime | None = None) -> QuotaAccount:
    """The user's quota account, or for a user who has none yet (made outside sign-up) the
    account it will open with, unsaved: the default plan and its current period's grant
    (services.quota_account_for opens it so on the first write). Writes nothing."""
    account = QuotaAccount.objects.select_related("plan").filter(user=user).first()
    if account is not None:
        return account
    plan = Plan.objects.filter(is_default=True).first() or Plan(**DEFAULT_PLAN, is_default=True)
    account = QuotaAccount(user=user, plan=plan)
    if plan_grant_period(plan=plan, now=now or timezone.now()) is not None:
        account.balance = plan.periodic_grant
    return account


def _unopened(account: QuotaAccount) -> bool:
    """An account quota_account_read made up: nothing of it is stored yet."""
    return account._state.adding


def quota_next_grant_at(*, account: QuotaAccount, now: datetime | None = None) -> datetime | None:
    """When the plan's next periodic grant is due, or None if the plan grants nothing."""
    bounds = plan_grant_period(plan=account.plan, now=now or timezone.now())
    if bounds is None:
        return None
    start, end = bounds
    # The periodic run issues a period's grant some time into it (hourly): until then the
    # current period's grant is the next one, not the following period's. An account opens
    # with its period's grant.
    issued = (
        _unopened(account)
        or QuotaGrant.objects.filter(
            account=account, source=QuotaGrant.Source.PLAN, period_start=start, period_end=end
        ).exists()
    )
    return end if issued else start


@dataclass(frozen=True)
class QuotaCredits:
    """An account's credits now: `balance` is what can be reserved (usable_credits: an expired
    grant's credits no reservation holds are not, whether or not their expiry is written yet),
    `reserved` what active reservations hold."""

    balance: int
    reserved: int
    plan: Plan


def quota_credits(*, account: QuotaAccount, now: datetime | None = None) -> QuotaCredits:
    """The account's credits at `now` (default: now), read in one query that writes nothing."""
    if _unopened(account):
        return QuotaCredits(balance=account.balance, reserved=0, plan=account.plan)
    balance, reserved = (
        QuotaAccount.objects.filter(pk=account.pk)
        .annotate(usable=usable_credits(now or timezone.now()))
        .values_list("usable", "reserved")
        .get()
    )
    return QuotaCredits(balance=balance, reserved=reserved, plan=account.plan)


def quota_balance(*, account: QuotaAccount) -> dict[str, Any]:
    credits = quota_credits(account=account)
    next_grant = quota_next_grant_at(account=account)
    return {
        "balance": credits.balance,
        "reserved": credits.reserved,
        "plan": {
            "slug": account.plan.slug,
            "name": account.plan.name,
            "periodic_grant": account.plan.periodic_grant,
            "period": account.plan.period,
        },
        "next_grant_at": next_grant.isoformat().replace("+00:00", "Z") if next_grant else None,
    }


# A grant adds its amount to the account's credits; a charge, an expiry or a withdrawal takes
# it away.
_SIGNED_AMOUNT = Case(
    When(kind=LedgerEntry.Kind.GRANT, then=F("amount")),
    default=Value(0) - F("amount"),
    output_field=BigIntegerField(),
)


def quota_ledger_page(
    *,
    account: QuotaAccount,
    before: int | None = None,
    limit: int = 50,
    running_balance: bool = False,
) -> tuple[list[LedgerEntry], int | None]:
    """Newest-first ledger entries with id < before; returns (entries, next `before` or None).
    Keyset pagination on the append-only id, so pages never shift as entries are added.

    With `running_balance`, each entry also carries `running_balance`: the account's credits
    after it, counting credits held by active reservations (sum of grant.remaining). Holding
    and returning credits write no entry, so this is the sum of the signed amounts of the
    account's entries up to it, and each row adds up with the one before it (the stored
    `balance_after` is the available balance only, which moves with every hold). Same query:
    the window runs over all of the account's entries older than `before`."""
    limit = max(1, min(limit, LEDGER_PAGE_MAX))
    if _unopened(account):
        return [], None
    queryset = (
        LedgerEntry.objects.filter(account=account)
        .select_related("reservation")
        .prefetch_related(Prefetch("allocations", queryset=LedgerAllocation.objects.order_by("id")))
        .order_by("-id")
    )
    if running_balance:
        queryset = queryset.annotate(
            running_balance=Window(
                Sum(_SIGNED_AMOUNT), order_by=F("id").asc(), frame=RowRange(end=0)
            )
        )
    if before is not None:
        queryset = queryset.filter(id__lt=before)
    rows = list(queryset[: limit + 1])
    has_more = len(rows) > limit
    rows = rows[:limit]
    return rows, (rows[-1].id if has_more else None)


@dataclass(frozen=True)
class LedgerNewer:
    """What lies above a ledger page: `exists` whether any entry is newer than its newest one,
    `before` the `before` of the page just newer, or None when that page is the newest one."""

    exists: bool
    before: int | None


def quota_ledger_newer(*, account: QuotaAccount, after: int, limit: int) -> LedgerNewer:
    """The ledger page just newer than a page whose newest entry is `after` (the `limit`
    entries above it)."""
    limit = max(1, min(limit, LEDGER_PAGE_MAX))
    if _unopened(account):
        return LedgerNewer(exists=False, before=None)
    above = list(
        LedgerEntry.objects.filter(account=account, id__gt=after)
        .order_by("id")
        .values_list("id", flat=True)[: limit + 1]
    )
    return LedgerNewer(exists=bool(above), before=above[limit] if len(above) > limit else None)


def quota_active_reservations(*, account: QuotaAccount) -> QuerySet[Reservation]:
    if _unopened(account):
        return Reservation.objects.none()
    return Reservation.objects.filter(account=account, status=Reservation.Status.ACTIVE).order_by(
        "-created_at"
    )


def quota_grants_for(*, account: QuotaAccount, limit: int = 50) -> list[QuotaGrant]:
    """Every grant that still holds credits, in the order charges draw from them, then the
    newest of the spent or lapsed ones, `limit` in all: an old lasting grant is never left off
    for newer ones spent since. Each carries `lapsed`: past its expiry, and `left`: its credits
    as of now, for display: a lapsed grant's are what active reservations hold of it, as the rest
    has expired even while its expiry is not written yet. `remaining` stays as stored."""
    now = timezone.now()
    if _unopened(account):
        return _opening_grants(account=account, now=now)
    grants = QuotaGrant.objects.filter(account=account)
    holding = list(
        grants.filter(remaining__gt=0)
        .annotate(drawing=grant_drawing_reserved())
        .order_by(*GRANT_DRAW_ORDER)
    )
    spent = grants.filter(remaining=0).order_by("-created_at")[: max(0, limit - len(holding))]
    held = grant_credits_held((g.pk, g.remaining, g.drawing) for g in holding)
    listed = holding + list(spent)
    for grant in listed:
        grant.lapsed = grant.expires_at is not None and grant.expires_at <= now
        grant.left = held.get(grant.pk, 0) if grant.lapsed else grant.remaining
    return listed


def _opening_grants(*, account: QuotaAccount, now: datetime) -> list[QuotaGrant]:
    """The plan grant an unopened account opens with (quota_plan_grant_issue), unsaved."""
    bounds = plan_grant_period(plan=account.plan, now=now)
    if bounds is None:
        return []
    start, end = bounds
    grant = QuotaGrant(
        account=account,
        amount=account.plan.periodic_grant,
        remaining=account.plan.periodic_grant,
        source=QuotaGrant.Source.PLAN,
        period_start=start,
        period_end=end,
        expires_at=end if account.plan.grants_expire else None,
    )
    grant.lapsed, grant.left = False, grant.remaining
    return [grant]


@dataclass(frozen=True)
class ReservationUse:
    """What a reservation's credits are for, in words, and where to see it (or "")."""

    text: str
    url: str = ""


def quota_reservation_uses(
    *, account: QuotaAccount, reservations: Iterable[Reservation | None]
) -> dict[Any, ReservationUse]:
    """{reservation id: ReservationUse} for the account's reservations, described by the app
    that owns each kind (SAGASMITH_QUOTA_OWNER_USES: owner type -> a function of
    (reservation_ids, user_id) returning {id: (text, url)}), one call per owner type."""
    by_type: dict[str, set] = {}
    for reservation in reservations:
        if reservation is not None:
            by_type.setdefault(reservation.owner_type, set()).add(reservation.pk)
    registry = getattr(settings, "SAGASMITH_QUOTA_OWNER_USES", {}) or {}
    uses = {}
    for owner_type, ids in by_type.items():
        described = {}
        if owner_type in registry:
            described = import_string(registry[owner_type])(
                reservation_ids=ids, user_id=account.user_id
            )
        for pk in ids:
            text, url = described.get(pk, (_("Other usage"), ""))
            uses[pk] = ReservationUse(str(text), url)
    return uses


def quota_uses_attach(
    *,
    account: QuotaAccount,
    entries: Iterable[LedgerEntry],
    reservations: Iterable[Reservation] = (),
) -> None:
    """Set `use` (a ReservationUse, or None for an entry without a reservation) on each ledger
    entry and reservation, with one lookup per owner type for all of them."""
    entries, reservations = list(entries), list(reservations)
    uses = quota_reservation_uses(
        account=account, reservations=[e.reservation for e in entries] + reservations
    )
    for entry in entries:
        entry.use = uses.get(entry.reservation_id)
    for reservation in reservations:
        reservation.use = uses[reservation.pk]
