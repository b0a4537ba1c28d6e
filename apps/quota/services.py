"""Quota writes: accounts, grants, reservations, settlement, release, expiry and the reaper.

Lock order everywhere: reservation -> account -> grants. Reservation state changes are
conditional UPDATEs on `status='active'`, so exactly one of settle / release / reap wins.
"""

from __future__ import annotations

import functools
import json
import logging
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import (
    BigIntegerField,
    Case,
    DateTimeField,
    Exists,
    Expression,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.expressions import CombinedExpression, RawSQL
from django.db.models.functions import Coalesce, Greatest, Least
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.core.errors import Conflict, NotFound, QuotaExceeded, ValidationFailed
from apps.core.services import audit_record
from apps.core.sql import mark_saved

from .models import (
    GRANT_DRAW_ORDER,
    NEVER,
    OWNER_TYPE_LABELS,
    LedgerAllocation,
    LedgerEntry,
    Plan,
    QuotaAccount,
    QuotaGrant,
    Reservation,
    grant_draw_key,
    owner_type_description,
)

logger = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS = 300
MAX_KEY_LENGTH = 160
DEFAULT_PLAN = {"slug": "free", "name": "Free", "periodic_grant": 100, "period": "monthly"}


# --- periods ---------------------------------------------------------------------------------


def plan_period_bounds(*, plan: Plan, at: datetime) -> tuple[datetime, datetime] | None:
    """The [start, end) period of `plan` containing `at` (UTC), or None for a plan without one."""
    at = at.astimezone(UTC)
    day = at.replace(hour=0, minute=0, second=0, microsecond=0)
    if plan.period == Plan.Period.DAILY:
        return day, day + timedelta(days=1)
    if plan.period == Plan.Period.WEEKLY:
        start = day - timedelta(days=day.weekday())
        return start, start + timedelta(days=7)
    if plan.period == Plan.Period.MONTHLY:
        start = day.replace(day=1)
        return start, (start + timedelta(days=32)).replace(day=1)
    return None


# --- accounts --------------------------------------------------------------------------------


def plan_default() -> Plan:
    """The plan new accounts get (recreated from DEFAULT_PLAN if the migration's row is gone)."""
    plan = Plan.objects.filter(is_default=True).first()
    if plan is not None:
        return plan
    try:
        with transaction.atomic():
            plan, _created = Plan.objects.get_or_create(
                slug=DEFAULT_PLAN["slug"], defaults={**DEFAULT_PLAN, "is_default": True}
            )
    except IntegrityError:
        plan = Plan.objects.get(is_default=True)
    return plan


def quota_account_for(*, user, plan: Plan | None = None) -> QuotaAccount:
    """The user's quota account, created on first access with the default plan (or `plan`)
    and the current period's plan grant."""
    account = QuotaAccount.objects.select_related("plan").filter(user=user).first()
    if account is not None:
        return account
    plan = plan or plan_default()
    try:
        with transaction.atomic():
            account = QuotaAccount.objects.create(user=user, plan=plan)
            quota_plan_grant_issue(account=account)
    except IntegrityError:
        # Another request created it first; theirs is the account.
        account = QuotaAccount.objects.select_related("plan").get(user=user)
    return account


# --- grants ----------------------------------------------------------------------------------


def quota_grant(
    *,
    account: QuotaAccount,
    amount: int,
    source: str,
    actor=None,
    period_start: datetime | None = None,
    period_end: datetime | None = None,
    expires_at: datetime | None = None,
    note: str = "",
) -> QuotaGrant:
    """Add `amount` credits to the account with a grant row, a ledger entry and an audit row.

    Raises ValidationFailed for a non-positive amount or unknown source; IntegrityError if a
    plan grant for the same period already exists (quota_plan_grant_issue handles that)."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise ValidationFailed(_("A grant must be a positive whole number of credits."))
    if source not in QuotaGrant.Source.values:
        raise ValidationFailed(_("Unknown grant source %(source)s.") % {"source": source})
    with transaction.atomic():
        locked = QuotaAccount.objects.select_for_update().get(pk=account.pk)
        grant = QuotaGrant.objects.create(
            account=locked,
            amount=amount,
            remaining=amount,
            source=source,
            period_start=period_start,
            period_end=period_end,
            expires_at=expires_at,
            actor=actor if getattr(actor, "pk", None) else None,
            note=note[:200],
        )
        locked.balance += amount
        locked.save(update_fields=["balance", "updated_at"])
        LedgerEntry.objects.create(
            account=locked,
            kind=LedgerEntry.Kind.GRANT,
            amount=amount,
            balance_after=locked.balance,
            grant=grant,
            description=(note or grant.get_source_display())[:200],
        )
        if source not in (QuotaGrant.Source.PLAN, QuotaGrant.Source.UPGRADE):
            # Plan grants are routine and already in the ledger, upgrade grants are in the audit
            # row of the plan change that issued them; staff/system grants are audited.
            audit_record(
                actor=actor,
                action="quota.grant",
                subject_type="quota.quotaaccount",
                subject_id=str(locked.pk),
                details={
                    "grant": str(grant.pk),
                    "user": str(locked.user_id),
                    "amount": amount,
                    "source": source,
                    "expires_at": expires_at.isoformat() if expires_at else None,
                    "note": note[:200],
                },
            )
    account.balance = locked.balance
    return grant


def plan_grant_period(*, plan: Plan, now: datetime) -> tuple[datetime, datetime] | None:
    """The (start, end) of the plan's period containing `now`; None if the plan grants
    nothing."""
    bounds = plan_period_bounds(plan=plan, at=now)
    if bounds is None or plan.periodic_grant <= 0:
        return None
    return bounds


def _plan_period_grant(
    *,
    account: QuotaAccount,
    plan: Plan,
    period: tuple[datetime, datetime],
    amount: int,
    source: str,
    note: str,
    actor=None,
) -> QuotaGrant:
    """Grant `amount` of the plan's credits for `period`, expiring at its end if the plan's
    grants do; `note` % plan and start."""
    start, end = period
    return quota_grant(
        account=account,
        amount=amount,
        source=source,
        actor=actor,
        period_start=start,
        period_end=end,
        expires_at=end if plan.grants_expire else None,
        note=note % {"plan": plan.name, "start": start.date().isoformat()},
    )


def quota_plan_grant_issue(
    *, account: QuotaAccount, now: datetime | None = None
) -> QuotaGrant | None:
    """Issue the plan's grant for the period containing `now`; None if the plan grants nothing
    or the grant for this period already exists (idempotent per account and period)."""
    now = now or timezone.now()
    plan = account.plan
    bounds = plan_grant_period(plan=plan, now=now)
    if bounds is None:
        return None
    start, end = bounds
    if QuotaGrant.objects.filter(
        account=account, source="plan", period_start=start, period_end=end
    ).exists():
        return None
    try:
        with transaction.atomic():
            # The caller may have read the account before a plan change: the plan it has now
            # decides (a change grants its own period, quota_account_plan_change).
            current = (
                QuotaAccount.objects.select_for_update()
                .values_list("plan_id", flat=True)
                .get(pk=account.pk)
            )
            if current != plan.pk:
                return None
            return _plan_period_grant(
                account=account,
                plan=plan,
                period=bounds,
                amount=plan.periodic_grant,
                source=QuotaGrant.Source.PLAN,
                note=_("%(plan)s plan, period from %(start)s"),
            )
    except IntegrityError:
        # A concurrent run issued it: the unique (account, period_start, period_end) constraint
        # held.
        return None


@dataclass(frozen=True)
class PlanChange:
    """What switching an account's plan did: the plan it left, the grant issued at once (or
    None), and the plan credits the new plan's current period had before it."""

    previous: Plan
    grant: QuotaGrant | None
    granted_before: int


def quota_account_plan_change(
    *, account: QuotaAccount, plan: Plan, actor, now: datetime | None = None
) -> PlanChange:
    """Switch the account to `plan`, audited. The new plan's allowance for its current period
    applies at once: a period without a plan grant gets it now (as the periodic task would), a
    period with less than the allowance gets the difference; a downgrade takes nothing back.
    Raises Conflict when the account's user was deleted (it is kept for its ledger only)."""
    now = now or timezone.now()
    with transaction.atomic():
        # No join to the plan here: PostgreSQL re-checks a locked row that a concurrent change
        # updated against the joined plan row it read before, so the row would vanish.
        locked = QuotaAccount.objects.select_for_update().get(pk=account.pk)
        if locked.user_id is None:
            # No one to serve: a new plan would only grant credits nobody can spend.
            raise Conflict(
                _(
                    "This account's user was deleted: it is kept for its ledger, and its plan "
                    "cannot change."
                ),
                code="quota_account_user_deleted",
                recovery=_("Nothing to do: a deleted user's account keeps the plan it had."),
                details={"account": str(locked.pk)},
            )
        previous = locked.plan
        locked.plan = plan
        locked.save(update_fields=["plan", "updated_at"])
        grant, granted_before = _period_allowance_grant(
            account=locked,
            actor=actor,
            now=now,
            note=_("Upgrade to %(plan)s plan, period from %(start)s"),
        )
        audit_record(
            actor=actor,
            action="quota.account.plan_change",
            subject_type="quota.quotaaccount",
            subject_id=str(locked.pk),
            details={
                "user": str(locked.user_id),
                "from_plan": previous.slug,
                "to_plan": plan.slug,
                "granted": grant.amount if grant else 0,
                "grant": str(grant.pk) if grant else None,
            },
        )
    account.plan, account.balance, account.reserved = plan, locked.balance, locked.reserved
    return PlanChange(previous=previous, grant=grant, granted_before=granted_before)


def _period_allowance_grant(
    *, account: QuotaAccount, actor, now: datetime, note: str
) -> tuple[QuotaGrant | None, int]:
    """Bring the locked account's current period up to its plan's allowance: a period without
    a plan grant gets it now (as the periodic task would), a period with less than the
    allowance gets the difference (`note` % plan and start); more is never taken back.
    Returns (the grant issued or None, the plan credits the period had before)."""
    plan = account.plan
    bounds = plan_grant_period(plan=plan, now=now)
    if bounds is None:
        return None, 0
    start, end = bounds
    period = QuotaGrant.objects.filter(account=account, period_start=start, period_end=end)
    if not period.filter(source=QuotaGrant.Source.PLAN).exists():
        return quota_plan_grant_issue(account=account, now=now), 0
    # Under the account lock: grants are issued under it too, so this sum holds.
    granted_before = (
        period.filter(source__in=[QuotaGrant.Source.PLAN, QuotaGrant.Source.UPGRADE]).aggregate(
            total=Sum("amount")
        )["total"]
        or 0
    )
    if plan.periodic_grant <= granted_before:
        return None, granted_before
    grant = _plan_period_grant(
        account=account,
        plan=plan,
        period=bounds,
        amount=plan.periodic_grant - granted_before,
        source=QuotaGrant.Source.UPGRADE,
        note=note,
        actor=actor,
    )
    return grant, granted_before


def quota_plan_top_up(*, plan: Plan, actor, now: datetime | None = None) -> tuple[int, int]:
    """After a plan's credits per period were raised: give each account on it the difference
    for its current period now (the grant a plan change gives), audited. Without this the new
    allowance applies from each account's next period. Returns (accounts topped up, credits
    granted); running it again grants nothing."""
    now = now or timezone.now()
    topped_up = granted = 0
    # A deleted user's account is kept for its ledger, not credited.
    live = QuotaAccount.objects.filter(plan=plan, user__isnull=False)
    for account_id in list(live.values_list("pk", flat=True)):
        with transaction.atomic():
            locked = QuotaAccount.objects.select_for_update().get(pk=account_id)
            if locked.plan_id != plan.pk:
                continue  # moved to another plan meanwhile: that change granted its period
            locked.plan = plan
            grant, _before = _period_allowance_grant(
                account=locked,
                actor=actor,
                now=now,
                note=_("%(plan)s plan raised, period from %(start)s"),
            )
        if grant is not None:
            topped_up, granted = topped_up + 1, granted + grant.amount
    audit_record(
        actor=actor,
        action="quota.plan.top_up",
        subject_type="quota.plan",
        subject_id=str(plan.pk),
        details={"accounts": topped_up, "granted": granted, "periodic_grant": plan.periodic_grant},
    )
    return topped_up, granted


def quota_issue_periodic_grants(*, now: datetime | None = None) -> int:
    """Expire lapsed grants, then issue each account's plan grant for the current period.
    Returns the number of grants issued; safe to run any number of times."""
    now = now or timezone.now()
    quota_expire_grants(now=now)
    issued = 0
    # A deleted user's account is kept for its ledger, not credited.
    accounts = QuotaAccount.objects.select_related("plan").filter(
        plan__periodic_grant__gt=0, user__isnull=False
    )
    for account in accounts.iterator(chunk_size=500):
        if quota_plan_grant_issue(account=account, now=now) is not None:
            issued += 1
    return issued


def quota_expire_grants(*, now: datetime | None = None) -> int:
    """Forfeit unused credits of grants past their expiry; returns credits forfeited.

    Only the part not backing active reservations can be forfeited (see _forfeit); the rest
    stays on the grant so in-flight settlements can still draw from it, and a later run forfeits
    what they leave once those reservations close."""
    now = now or timezone.now()
    forfeited = 0
    # Only accounts with something to forfeit: credits held by active reservations stay on
    # their expired grant until settled, and their account is not locked again every run.
    lapsed = lapsed_grants(now, account=None).values("account_id")
    due = _with_lapsed_unused(now).filter(pk__in=lapsed).values_list("pk", flat=True)
    for account_id in list(due):
        forfeited += _expire_account_grants(account_id=account_id, now=now)[0]
    return forfeited


def quota_account_expire_lapsed(*, account: QuotaAccount, now: datetime | None = None) -> int:
    """Forfeit the account's unused credits of expired grants now, before reserving, not at the
    expiry task's next run (every minute, schedule.py); reads leave them out without this (see
    usable_credits). Returns credits forfeited.

    One query when there is nothing to forfeit. Credits of expired grants held by active
    reservations stay (as in quota_expire_grants); so does `account` (balance and reserved are
    refreshed on it)."""
    now = now or timezone.now()
    if not _has_lapsed_unused(account_id=account.pk, now=now):
        return 0
    forfeited, locked = _expire_account_grants(account_id=account.pk, now=now)
    account.balance, account.reserved = locked.balance, locked.reserved
    return forfeited


def _with_lapsed_unused(now: datetime) -> QuerySet[QuotaAccount]:
    """The accounts with expired credits no active reservation holds: something to forfeit."""
    return QuotaAccount.objects.annotate(unused=lapsed_unused_credits(now)).filter(unused__gt=0)


def _has_lapsed_unused(*, account_id, now: datetime) -> bool:
    return _with_lapsed_unused(now).filter(pk=account_id).exists()


def usable_credits(now: datetime) -> CombinedExpression:
    """What an account (a QuotaAccount row) can reserve at `now`: its balance without the
    unused credits of its expired grants. The one rule for the balance shown and reserved."""
    return F("balance") - lapsed_unused_credits(now)


def lapsed_unused_credits(now: datetime) -> Greatest:
    """The credits of the account's expired grants that no active reservation can draw on any
    more: unusable from the moment their grant expires, though still in `balance` until
    forfeited (by the periodic expiry run or the account's next reservation)."""
    worst = (
        lapsed_grants(now)
        .annotate(unheld=_unheld_through())
        .order_by("-unheld")
        .values("unheld")[:1]
    )
    return Greatest(Coalesce(Subquery(worst), 0), Value(0))


def _no_lapsed_unused(now: datetime | Expression) -> Q:
    """Accounts whose balance counts no credits of expired grants that active reservations
    cannot draw (lapsed_unused_credits is 0): their balance is their usable_credits, and
    credits can be taken from it as it stands. Both reservation paths hold credits only under
    this."""
    return ~Exists(lapsed_grants(now).alias(unheld=_unheld_through()).filter(unheld__gt=0))


def lapsed_grants(
    now: datetime | Expression, account: Any = OuterRef("pk")
) -> QuerySet[QuotaGrant]:
    """The grants expired at `now` that still hold credits: the one expiry rule of the reads,
    both reservation paths and forfeiture. Of `account`: by default the account a subquery is
    about (OuterRef "pk"), or an account's pk, or None for every account."""
    grants = QuotaGrant.objects.filter(expires_at__lte=now, remaining__gt=0).order_by()
    return grants if account is None else grants.filter(account_id=account)


def _drawable_by(made_at: datetime | Expression) -> Q:
    """The grants a reservation made at `made_at` may draw from: those not expired by then. A
    turn reserved after a grant expired never spends that grant's leftover credits."""
    return Q(expires_at__isnull=True) | Q(expires_at__gt=made_at)


def grant_drawing_reserved() -> Coalesce:
    """The credits held by active reservations that may draw from a grant (a QuotaGrant row):
    those made before it expired (_drawable_by); all of them for a grant not expired yet."""
    older = (
        Reservation.objects.filter(
            account_id=OuterRef("account_id"),
            status=Reservation.Status.ACTIVE,
            created_at__lt=Coalesce(OuterRef("expires_at"), Value(NEVER)),
        )
        .order_by()
        .values("account_id")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    return Coalesce(Subquery(older), 0)


def _unheld_through() -> CombinedExpression:
    """For an expired grant (a QuotaGrant row): the credits of the account's grants expiring
    no later than it beyond what the active reservations that may draw from them hold. Those
    reservations are the ones made before it expired (older ones may draw from all of these
    grants), so a positive figure is credits nobody can draw any more."""
    through = (
        QuotaGrant.objects.filter(
            account_id=OuterRef("account_id"), expires_at__lte=OuterRef("expires_at")
        )
        .order_by()
        .values("account_id")
        .annotate(total=Sum("remaining"))
        .values("total")
    )
    return Coalesce(Subquery(through), 0) - grant_drawing_reserved()


def grant_held_credits() -> Least:
    """The credits of a grant (a QuotaGrant row) that active reservations hold, as
    grant_credits_held assigns them: in GRANT_DRAW_ORDER, each grant holds what the
    reservations that may draw from it (grant_drawing_reserved) hold beyond the grants before
    it. Those before it hold at most their credits, and of an earlier-expiring group at most
    what reservations made before it expired hold (_unheld_through)."""
    key, outer = grant_draw_key(), grant_draw_key(OuterRef)
    # Drawn before this grant: its draw key is lower, compared part by part.
    drawn_before = Q()
    for i in range(len(key)):
        drawn_before |= Q(
            **{f"draw_{j}": outer[j] for j in range(i)}, **{f"draw_{i}__lt": outer[i]}
        )
    before = (
        QuotaGrant.objects.filter(account_id=OuterRef("account_id"), remaining__gt=0)
        .alias(**{f"draw_{i}": part for i, part in enumerate(key)})
        .filter(drawn_before)
        .order_by()
        .values("account_id")
        .annotate(total=Sum("remaining"))
        .values("total")
    )
    # The most credits of an earlier-expiring group that nobody may draw: the grants before
    # this one hold that much less than they have.
    unheld_earlier = (
        QuotaGrant.objects.filter(
            account_id=OuterRef("account_id"), remaining__gt=0, expires_at__lt=outer[0]
        )
        .annotate(unheld=_unheld_through())
        .order_by("-unheld")
        .values("unheld")[:1]
    )
    beyond_before = grant_drawing_reserved() - Coalesce(Subquery(before), 0)
    return Least(
        F("remaining"),
        Greatest(
            beyond_before,
            Value(0),
            beyond_before + Coalesce(Subquery(unheld_earlier), 0),
        ),
    )


def grant_usable_credits(now: datetime) -> Case:
    """What can still be drawn from a grant (a QuotaGrant row) at `now`: nothing once it has
    expired, else its credits no active reservation holds. An account's grants add up to its
    usable_credits."""
    return Case(
        When(expires_at__lte=now, then=Value(0)),
        default=F("remaining") - grant_held_credits(),
        output_field=BigIntegerField(),
    )


def _expire_account_grants(*, account_id, now: datetime) -> tuple[int, QuotaAccount]:
    with transaction.atomic():
        account = QuotaAccount.objects.select_for_update().get(pk=account_id)
        forfeited = _forfeit_lapsed(account, now=now)
    return forfeited, account


def _forfeit_lapsed(account: QuotaAccount, *, now: datetime) -> int:
    """Write off the locked account's unused credits of grants expired at `now` (_forfeit)."""
    grants = lapsed_grants(now, account=account.pk).select_for_update()
    return _forfeit(
        account, grants, kind=LedgerEntry.Kind.EXPIRE, description=_("Unused credits expired")
    )


def quota_grant_withdraw(*, grant: QuotaGrant, actor, note: str = "") -> tuple[int, int]:
    """Withdraw a grant's unused credits now (staff correcting a balance), as far as the
    account's available balance allows: credits held by requests in progress stay theirs, so a
    turn under way can still pay, and come back to the balance when it settles; withdraw again
    then. Credits of expired grants are not usable: those not yet written off are written off
    first, as the expiry they are. Returns (credits withdrawn, credits of this grant still
    left)."""
    with transaction.atomic():
        account = QuotaAccount.objects.select_for_update().get(pk=grant.account_id)
        _forfeit_lapsed(account, now=timezone.now())
        locked = QuotaGrant.objects.select_for_update().filter(pk=grant.pk)
        reason = _("Withdrawn by staff")
        taken = _forfeit(
            account,
            locked,
            kind=LedgerEntry.Kind.WITHDRAW,
            description=f"{reason}: {note}"[:200] if note else reason,
        )
        left = locked.values_list("remaining", flat=True).get()
        audit_record(
            actor=actor,
            action="quota.grant.withdraw",
            subject_type="quota_grant",
            subject_id=str(grant.pk),
            details={"withdrawn": taken, "left": left, "note": note[:200]},
        )
    return taken, left


def grant_credits_held(grants: Iterable[tuple[Any, int, int]]) -> dict[Any, int]:
    """{grant pk: credits of it that active reservations hold}, for an account's grants holding
    credits as (pk, remaining, grant_drawing_reserved) in GRANT_DRAW_ORDER.

    Settlement pays a reservation from the grants not expired when it was made, in that order,
    so the credits held are the first ones in it that each grant's reservations can reach: a
    grant holds what the reservations that may draw from it hold beyond the grants before it.
    Those reservations include every one that may draw from an earlier grant (the earlier a
    grant expires, the fewer may), so this hands every reservation its credits."""
    held: dict[Any, int] = {}
    before = 0
    for pk, remaining, drawing in grants:
        held[pk] = max(0, min(remaining, drawing - before))
        before += held[pk]
    return held


def _forfeit(account: QuotaAccount, grants, *, kind: str, description: str) -> int:
    """Take the locked grants' unused credits off the locked account, earliest expiry first,
    each with a ledger entry of `kind` (expiry or withdrawal).

    Credits held by active reservations are not unused: settlement pays them from the
    account's grants in draw order, so they stay on the grants grant_credits_held assigns them
    to. Taking them from a lapsed grant would make the turn pay with another grant's credits,
    so the user would lose those too."""
    holding = list(
        QuotaGrant.objects.filter(account_id=account.pk, remaining__gt=0)
        .order_by(*GRANT_DRAW_ORDER)
        .values_list("pk", "remaining", grant_drawing_reserved())
    )
    held = grant_credits_held(holding)
    unused = {pk: remaining - held[pk] for pk, remaining, _drawing in holding}
    forfeited = 0
    for grant in grants.order_by(*GRANT_DRAW_ORDER):
        take = min(unused.get(grant.pk, 0), account.balance)
        if take <= 0:
            continue
        grant.remaining -= take
        grant.save(update_fields=["remaining", "updated_at"])
        account.balance -= take
        LedgerEntry.objects.create(
            account=account,
            kind=kind,
            amount=take,
            balance_after=account.balance,
            grant=grant,
            description=description,
        )
        forfeited += take
    if forfeited:
        account.save(update_fields=["balance", "updated_at"])
    return forfeited


# --- reservations ----------------------------------------------------------------------------


def _closed(reservation: Reservation) -> Conflict:
    return Conflict(
        _("Reservation %(key)s is already %(status)s.")
        % {"key": reservation.key, "status": reservation.get_status_display()},
        code="reservation_closed",
        details={"key": reservation.key, "status": reservation.status},
    )


def _same_request(
    existing: Reservation, *, amount: int, owner_type: str, owner_id: str, at_least: int | None
):
    # An at_least request may have held less than `amount`: its replay is still the same one.
    least = amount if at_least is None else min(at_least, amount)
    same_owner = (existing.owner_type, existing.owner_id) == (owner_type, owner_id)
    if not (same_owner and least <= existing.amount <= amount):
        raise Conflict(
            ngettext(
                "Reservation key %(key)s was already used for %(amount)s credit.",
                "Reservation key %(key)s was already used for %(amount)s credits.",
                existing.amount,
            )
            % {"key": existing.key, "amount": existing.amount},
            code="reservation_key_conflict",
            recovery=_("Use a new reservation key for a different request."),
            details={"key": existing.key, "amount": existing.amount},
        )
    return existing


def quota_reserve(
    *,
    user,
    amount: int,
    key: str,
    owner_type: str = "",
    owner_id: str = "",
    ttl_seconds: int = DEFAULT_TTL_SECONDS,
    at_least: int | None = None,
) -> Reservation:
    """Hold `amount` credits under (user, key); the same key and request returns the same
    reservation. With `at_least`, a balance short of `amount` but covering `at_least` is held
    whole instead (settlement charges no more than what is held). Raises QuotaExceeded (402)
    when the balance is short, Conflict when the key was used for a different amount or owner,
    ValidationFailed for bad input.

    Safe inside a caller's transaction (it uses a savepoint), e.g. the one creating a job row.

    Made as of one moment, when the request began: a grant usable then is usable for it (and
    settlement draws on it), though it may expire before the rows are written."""
    now = timezone.now()
    try:
        return _reserve(user=user, amount=amount, key=key, owner_type=owner_type,
                        owner_id=owner_id, ttl_seconds=ttl_seconds, at_least=at_least,
                        now=now)  # fmt: skip
    except QuotaExceeded as exc:
        balance = (exc.details or {}).get("balance", 0)
        if at_least is None or not at_least <= balance < amount:
            raise
    return _reserve(user=user, amount=balance, key=key, owner_type=owner_type,
                    owner_id=owner_id, ttl_seconds=ttl_seconds,
                    at_least=at_least, requested=amount, now=now)  # fmt: skip


def _reserve(
    *,
    user,
    amount: int,
    key: str,
    owner_type: str,
    owner_id: str,
    ttl_seconds: int,
    at_least: int | None,
    now: datetime,
    requested: int | None = None,
) -> Reservation:
    """Hold `amount`; a reservation the key already has is returned if it answers the same
    request (`requested` credits, or down to `at_least` of them)."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise ValidationFailed(_("A reservation must be a positive whole number of credits."))
    if not key or len(key) > MAX_KEY_LENGTH:
        raise ValidationFailed(
            _("A reservation key must be 1-%(max)s characters.") % {"max": MAX_KEY_LENGTH}
        )
    if ttl_seconds <= 0:
        raise ValidationFailed(_("A reservation needs a positive time to live."))
    owner_id = str(owner_id)
    fields = {
        "amount": amount,
        "key": key,
        "owner_type": owner_type,
        "owner_id": owner_id,
        "ttl_seconds": ttl_seconds,
    }
    if connection.vendor == "postgresql":
        reservation = _reserve_one_statement(user=user, **fields, now=now)
        if reservation is not None:
            return reservation
    # First use (no account yet), a repeated key, a short balance, credits of expired grants not
    # yet forfeited, or not PostgreSQL.
    return _reserve_orm(
        user=user, **fields, requested=requested or amount, at_least=at_least, now=now
    )


# One statement: lock the account row if the balance covers the amount, insert the reservation
# unless (user, key) exists, and move the credits only if the insert happened. With no client
# round trip while the row is locked, a hot account runs near the speed of a bare UPDATE.
_RESERVE_SQL = """
WITH acc AS (
    SELECT {account}.id FROM {account}
    WHERE {account}.user_id = %(user)s AND {account}.balance >= %(amount)s
    -- Unless the balance still counts credits of expired grants no reservation holds
    -- (_no_lapsed_unused, compiled): nothing is reserved then; the ORM path forfeits them first.
    AND {no_lapsed_unused}
    FOR NO KEY UPDATE
), ins AS (
    INSERT INTO {reservation} (id, created_at, updated_at, account_id, user_id, key, amount,
        status, settled_amount, owner_type, owner_id, ttl_seconds, heartbeat_at, expires_at,
        closed_at, close_reason)
    SELECT %(id)s, %(now)s, %(now)s, acc.id, %(user)s, %(key)s, %(amount)s, 'active', NULL,
        %(owner_type)s, %(owner_id)s, %(ttl)s, %(now)s, %(expires)s, NULL, ''
    FROM acc
    ON CONFLICT (user_id, key) DO NOTHING
    RETURNING account_id
), upd AS (
    UPDATE {account} AS a
    SET balance = a.balance - %(amount)s, reserved = a.reserved + %(amount)s,
        updated_at = %(now)s
    FROM ins WHERE a.id = ins.account_id AND a.balance >= %(amount)s
    RETURNING a.id
)
SELECT id FROM upd
"""


class _StatementNow(Expression):
    """The one-statement reservation's %(now)s, as `now` in an expression compiled into it."""

    output_field = DateTimeField()

    def as_sql(self, compiler, connection):
        return "%(now)s", []


@functools.cache
def _reserve_sql() -> tuple[str, dict[str, Any]]:
    """The one-statement reservation and its fixed parameters. Its expiry condition is
    _no_lapsed_unused compiled once, the expression the ORM path and the reads use, with its
    `now` the statement's: the text stays the same from call to call, so psycopg can still
    prepare it."""
    query = QuotaAccount.objects.filter(_no_lapsed_unused(_StatementNow())).query
    condition, values = query.get_compiler(connection=connection).compile(query.where)
    bound, fixed = _named_params(condition, values, "lapsed")
    sql = _RESERVE_SQL.format(
        account=connection.ops.quote_name(QuotaAccount._meta.db_table),
        reservation=connection.ops.quote_name(Reservation._meta.db_table),
        no_lapsed_unused=bound,
    )
    return sql, fixed


def _reserve_one_statement(
    *,
    user,
    amount: int,
    key: str,
    owner_type: str,
    owner_id: str,
    ttl_seconds: int,
    now: datetime,
) -> Reservation | None:
    """The PostgreSQL fast path; None when nothing was reserved (the caller diagnoses why)."""
    expires = now + timedelta(seconds=ttl_seconds)
    reservation_id = uuid.uuid4()
    params = {
        "user": user.pk,
        "amount": amount,
        "id": reservation_id,
        "now": now,
        "key": key,
        "owner_type": owner_type,
        "owner_id": owner_id,
        "ttl": ttl_seconds,
        "expires": expires,
    }
    # Server-side binding (settings) lets psycopg prepare the statement once it repeats on a
    # connection; Django's cursor keeps it in the query log and the execute wrappers.
    sql, fixed = _reserve_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, {**params, **fixed})
        row = cursor.fetchone()
    if row is None:
        return None
    reservation = Reservation(
        id=reservation_id,
        created_at=now,
        updated_at=now,
        account_id=row[0],
        user=user,
        key=key,
        amount=amount,
        status=Reservation.Status.ACTIVE,
        owner_type=owner_type,
        owner_id=owner_id,
        ttl_seconds=ttl_seconds,
        heartbeat_at=now,
        expires_at=expires,
        close_reason="",
    )
    mark_saved(reservation)
    return reservation


def _reserve_orm(
    *,
    user,
    amount: int,
    key: str,
    owner_type: str,
    owner_id: str,
    ttl_seconds: int,
    requested: int,
    at_least: int | None,
    now: datetime,
) -> Reservation:
    account = quota_account_for(user=user)
    existing = Reservation.objects.filter(user=user, key=key).first()
    if existing is not None:
        return _same_request(
            existing, amount=requested, owner_type=owner_type, owner_id=owner_id, at_least=at_least
        )
    fields = {"key": key, "amount": amount, "owner_type": owner_type, "owner_id": owner_id,
              "ttl_seconds": ttl_seconds}  # fmt: skip
    try:
        try:
            return _reserve_insert_and_take(account=account, user=user, fields=fields, now=now)
        except _LapsedCredits:
            # Forfeited in a transaction of their own: they stay forfeited if the balance is
            # then still short. As of `now`, as the check ran.
            quota_account_expire_lapsed(account=account, now=now)
            return _reserve_insert_and_take(
                account=account, user=user, fields=fields, now=now, lapsed_checked=True
            )
    except IntegrityError:
        # A concurrent request with the same key committed first: that one is the reservation.
        existing = Reservation.objects.get(user=user, key=key)
        return _same_request(
            existing, amount=requested, owner_type=owner_type, owner_id=owner_id, at_least=at_least
        )


class _LapsedCredits(Exception):
    """The balance counts credits of expired grants: forfeit them, then reserve again."""


def _reserve_insert_and_take(
    *, account: QuotaAccount, user, fields: dict, now: datetime, lapsed_checked: bool = False
) -> Reservation:
    amount = fields["amount"]
    # Insert first, then take the row lock with one conditional UPDATE: the account row is
    # locked only from that UPDATE to commit.
    with transaction.atomic():
        reservation = Reservation(
            account=account,
            user=user,
            created_at=now,
            updated_at=now,
            heartbeat_at=now,
            expires_at=now + timedelta(seconds=fields["ttl_seconds"]),
            **fields,
        )
        # Raw: stamped `now`, not the moment of the insert (auto_now_add), as settlement takes
        # created_at for when it was made (_drawable_by).
        reservation.save_base(raw=True, force_insert=True)
        # Not while the balance counts credits of expired grants not held by reservations:
        # they are not there to be held. Expired as of `now`: a grant counted here is one
        # settlement may draw on.
        taken = QuotaAccount.objects.filter(
            _no_lapsed_unused(now), pk=account.pk, balance__gte=amount
        ).update(balance=F("balance") - amount, reserved=F("reserved") + amount, updated_at=now)
        if taken:
            return reservation
        if not lapsed_checked and _has_lapsed_unused(account_id=account.pk, now=now):
            raise _LapsedCredits
        balance, held = QuotaAccount.objects.values_list("balance", "reserved").get(pk=account.pk)
        message = ngettext(
            "You have %(balance)s credit available; this needs %(amount)s.",
            "You have %(balance)s credits available; this needs %(amount)s.",
            balance,
        ) % {"balance": balance, "amount": amount}
        if held > 0:
            message += " " + ngettext(
                "%(held)s more is held until your requests in progress finish.",
                "%(held)s more are held until your requests in progress finish.",
                held,
            ) % {"held": held}
        raise QuotaExceeded(message, details={"balance": balance, "held": held, "needed": amount})


def quota_reservation_heartbeat(
    *, reservation: Reservation, ttl_seconds: int | None = None
) -> Reservation:
    """Renew an active reservation's lease (call from the owning job's heartbeat).
    Raises Conflict `reservation_closed` if it was settled, released or reaped."""
    now = timezone.now()
    ttl = ttl_seconds or reservation.ttl_seconds
    expires_at = now + timedelta(seconds=ttl)
    renewed = Reservation.objects.filter(
        pk=reservation.pk, status=Reservation.Status.ACTIVE
    ).update(heartbeat_at=now, expires_at=expires_at, ttl_seconds=ttl, updated_at=now)
    if not renewed:
        reservation.refresh_from_db()
        raise _closed(reservation)
    reservation.heartbeat_at, reservation.expires_at, reservation.ttl_seconds = now, expires_at, ttl
    return reservation


def _allocate(*, account_id, amount: int, made_at: datetime) -> list[tuple[QuotaGrant, int]]:
    """Draw `amount` from the account's grants not expired at `made_at` (when the reservation
    was made), earliest expiry first (never-expiring last)."""
    if amount <= 0:
        return []
    grants = (
        QuotaGrant.objects.select_for_update()
        .filter(_drawable_by(made_at), account_id=account_id, remaining__gt=0)
        .order_by(*GRANT_DRAW_ORDER)
    )
    plan: list[tuple[QuotaGrant, int]] = []
    left = amount
    for grant in grants:
        take = min(grant.remaining, left)
        plan.append((grant, take))
        left -= take
        if left == 0:
            break
    if left:
        # Unreachable: reservations are made only while the grants not expired then cover
        # the balance, and expired credits they may draw are held for them (grant_credits_held).
        raise RuntimeError(f"quota grants short by {left} for account {account_id}")
    return plan


def quota_settle(*, reservation: Reservation, actual: int) -> LedgerEntry:
    """Charge min(actual, reserved) into the ledger, drawing from grants; the rest returns to
    the balance. Settling again returns the first entry (never a second charge).
    Raises Conflict `reservation_closed` if it was released or reaped, ValidationFailed if
    `actual` is negative."""
    if not isinstance(actual, int) or isinstance(actual, bool) or actual < 0:
        raise ValidationFailed(_("Actual usage must be a whole number of credits, 0 or more."))
    if connection.vendor == "postgresql":
        entry = _settle_one_statement(reservation=reservation, actual=actual)
        if entry is not None:
            return entry
    # Already settled, released or reaped (diagnosed here), a grant the statement could not see,
    # or not PostgreSQL.
    return _settle_orm(reservation=reservation, actual=actual)


# One statement: lock the active reservation, then its account, then the account's grants it may
# draw from, those not expired when it was made (_drawable_by, compiled; the lock order of every
# other path); draw the charge from them earliest expiry first, write the ledger entry and its
# allocations and close the reservation. Nothing matches unless the reservation is active, so a
# second settlement writes nothing.
_SETTLE_SQL = """
WITH res AS (
    SELECT id, account_id, amount, owner_type, created_at, LEAST(%(actual)s, amount) AS charge
    FROM {reservation} WHERE id = %(id)s AND status = 'active'
    FOR NO KEY UPDATE
), acc AS (
    SELECT a.id, a.balance + res.amount - res.charge AS balance_after, res.amount, res.charge,
        res.created_at AS made_at
    FROM {account} AS a JOIN res ON a.id = res.account_id
    FOR NO KEY UPDATE OF a
), grants AS (
    -- Unaliased: the compiled drawable rule (_drawable_by) names the grant table.
    SELECT {grant}.id, {grant}.remaining, {grant}.expires_at, {grant}.created_at
    FROM {grant} JOIN acc ON {grant}.account_id = acc.id
    WHERE {grant}.remaining > 0 AND {drawable}
    FOR NO KEY UPDATE OF {grant}
), plan AS (
    -- Named as the grant table: the draw order (GRANT_DRAW_ORDER, compiled) refers to it so.
    SELECT {grant}.id, ROW_NUMBER() OVER drawn AS n,
        LEAST(remaining, acc.charge - (SUM(remaining) OVER drawn - remaining)) AS take
    FROM grants AS {grant}, acc
    WINDOW drawn AS (ORDER BY {draw_order})
), takes AS (
    SELECT id, n, take FROM plan WHERE take > 0
), covered AS (
    -- The grants this statement can see cover the charge. A grant added while it waited for
    -- the account lock is not in its snapshot: then nothing is written and the caller settles
    -- through the ORM path, whose statements see it.
    SELECT acc.* FROM acc WHERE (SELECT COALESCE(SUM(take), 0) FROM takes) = acc.charge
), drawn AS (
    UPDATE {grant} AS g SET remaining = g.remaining - takes.take
    FROM takes, covered WHERE g.id = takes.id
    RETURNING g.id
), account AS (
    UPDATE {account} AS a
    SET balance = covered.balance_after, reserved = a.reserved - covered.amount,
        updated_at = %(now)s
    FROM covered WHERE a.id = covered.id
    RETURNING a.id
), entry AS (
    -- Described by the owner type the row holds (the caller's copy may carry only the key):
    -- in words where there are words for it, else the code, which reads in words too.
    INSERT INTO {ledger} (created_at, account_id, kind, amount, balance_after, reservation_id,
        grant_id, description)
    SELECT %(now)s, covered.id, 'charge', covered.charge, covered.balance_after, res.id, NULL,
        COALESCE(%(descriptions)s::jsonb ->> res.owner_type, res.owner_type)
    FROM covered, res
    RETURNING id, account_id, amount, balance_after, description
), allocations AS (
    INSERT INTO {allocation} (entry_id, grant_id, amount)
    SELECT entry.id, takes.id, takes.take FROM entry, takes ORDER BY takes.n
), closed AS (
    UPDATE {reservation} AS r
    SET status = 'settled', settled_amount = res.charge, closed_at = %(now)s,
        close_reason = 'settled', updated_at = %(now)s
    FROM res, covered WHERE r.id = res.id
)
SELECT entry.id, entry.account_id, entry.amount, entry.balance_after, entry.description
FROM entry
"""


def _named_params(sql: str, values, prefix: str) -> tuple[str, dict[str, Any]]:
    """Compiled ORM SQL with its %s placeholders named `prefix`_0, _1, … for a statement with
    named parameters, and those parameters."""
    parts = sql.split("%s")
    fixed = {f"{prefix}_{i}": value for i, value in enumerate(values)}
    named = parts[0] + "".join(
        f"%({name})s{part}" for name, part in zip(fixed, parts[1:], strict=True)
    )
    return named, fixed


@functools.cache
def _settle_sql() -> tuple[str, dict[str, Any]]:
    """The one-statement settlement and its fixed parameters (those of the compiled draw
    order)."""
    compiler = QuotaGrant.objects.order_by(*GRANT_DRAW_ORDER).query.get_compiler(
        connection=connection
    )
    compiler.setup_query()
    order = [compiled for _expr, compiled in compiler.get_order_by()]
    draw_order, fixed = _named_params(
        ", ".join(sql for sql, _params, _ref in order),
        [param for _sql, params, _ref in order for param in params],
        "draw",
    )
    # The grants the reservation may draw from, as of when it was made (acc.made_at).
    drawable_query = QuotaGrant.objects.filter(
        _drawable_by(RawSQL("acc.made_at", (), output_field=DateTimeField()))
    ).query
    drawable, drawable_params = drawable_query.get_compiler(connection=connection).compile(
        drawable_query.where
    )
    drawable, drawable_fixed = _named_params(drawable, drawable_params, "drawable")
    quote = connection.ops.quote_name
    sql = _SETTLE_SQL.format(
        reservation=quote(Reservation._meta.db_table),
        account=quote(QuotaAccount._meta.db_table),
        grant=quote(QuotaGrant._meta.db_table),
        ledger=quote(LedgerEntry._meta.db_table),
        allocation=quote(LedgerAllocation._meta.db_table),
        draw_order=draw_order,
        drawable=f"({drawable})",
    )
    return sql, {**fixed, **drawable_fixed}


def _settle_one_statement(*, reservation: Reservation, actual: int) -> LedgerEntry | None:
    """The PostgreSQL fast path; None (nothing written) when the reservation was not active or
    the grants the statement could see did not cover the charge."""
    now = timezone.now()
    # The words for each owner type, as the ORM path stores them; the statement picks the one
    # for the reservation it locked.
    descriptions = {code: owner_type_description(code) for code in OWNER_TYPE_LABELS}
    with connection.cursor() as cursor:
        sql, fixed = _settle_sql()
        cursor.execute(
            sql,
            {
                **fixed,
                "id": reservation.pk,
                "actual": actual,
                "now": now,
                "descriptions": json.dumps(descriptions),
            },
        )
        row = cursor.fetchone()
    if row is None:
        return None
    entry_id, account_id, charge, balance_after, description = row
    entry = LedgerEntry(
        id=entry_id,
        created_at=now,
        account_id=account_id,
        kind=LedgerEntry.Kind.CHARGE,
        amount=charge,
        balance_after=balance_after,
        reservation_id=reservation.pk,
        description=description,
    )
    mark_saved(entry)
    reservation.status, reservation.settled_amount = Reservation.Status.SETTLED, charge
    reservation.closed_at, reservation.close_reason = now, "settled"
    return entry


def _settle_orm(*, reservation: Reservation, actual: int) -> LedgerEntry:
    with transaction.atomic():
        # The reservation and its account are locked by one statement, reservation first.
        locked = (
            Reservation.objects.select_related("account")
            .select_for_update(of=("self", "account"))
            .get(pk=reservation.pk)
        )
        if locked.status == Reservation.Status.SETTLED:
            return LedgerEntry.objects.get(reservation=locked)
        if locked.status != Reservation.Status.ACTIVE:
            raise _closed(locked)
        charge = min(actual, locked.amount)
        account = locked.account
        allocations = _allocate(account_id=account.pk, amount=charge, made_at=locked.created_at)
        for grant, take in allocations:
            QuotaGrant.objects.filter(pk=grant.pk).update(remaining=F("remaining") - take)
        account.balance += locked.amount - charge
        account.reserved -= locked.amount
        account.save(update_fields=["balance", "reserved", "updated_at"])
        entry = LedgerEntry.objects.create(
            account=account,
            kind=LedgerEntry.Kind.CHARGE,
            amount=charge,
            balance_after=account.balance,
            reservation=locked,
            description=owner_type_description(locked.owner_type),
        )
        LedgerAllocation.objects.bulk_create(
            [LedgerAllocation(entry=entry, grant=grant, amount=take) for grant, take in allocations]
        )
        now = timezone.now()
        locked.status = Reservation.Status.SETTLED
        locked.settled_amount = charge
        locked.closed_at = now
        locked.close_reason = "settled"
        locked.save(
            update_fields=["status", "settled_amount", "closed_at", "close_reason", "updated_at"]
        )
    reservation.status, reservation.settled_amount = locked.status, charge
    reservation.closed_at, reservation.close_reason = locked.closed_at, locked.close_reason
    return entry


def _close_and_refund(*, reservation_id, status: str, reason: str, extra: Q | None = None) -> bool:
    """Conditionally move an active reservation to `status` and return its credits to the balance.
    Runs inside the caller's transaction; False if it was no longer active (or `extra` failed)."""
    now = timezone.now()
    condition = Q(pk=reservation_id, status=Reservation.Status.ACTIVE)
    if extra is not None:
        condition &= extra
    row = (
        Reservation.objects.select_for_update()
        .filter(condition)
        .values("account_id", "amount")
        .first()
    )
    if row is None:
        return False
    Reservation.objects.filter(pk=reservation_id).update(
        status=status, closed_at=now, close_reason=reason[:120], updated_at=now
    )
    QuotaAccount.objects.filter(pk=row["account_id"]).update(
        balance=F("balance") + row["amount"], reserved=F("reserved") - row["amount"], updated_at=now
    )
    return True


def quota_release(*, reservation: Reservation, reason: str) -> Reservation:
    """Return an active reservation's credits (job failed or was cancelled). Idempotent: a
    reservation that is already released or reaped is returned as is. Raises Conflict
    `reservation_closed` if it was settled (the charge stands)."""
    with transaction.atomic():
        released = _close_and_refund(
            reservation_id=reservation.pk, status=Reservation.Status.RELEASED, reason=reason
        )
    reservation.refresh_from_db()
    if not released and reservation.status == Reservation.Status.SETTLED:
        raise _closed(reservation)
    return reservation


def quota_reservation_get(*, user, key: str) -> Reservation:
    """The user's reservation with `key`; raises NotFound."""
    reservation = Reservation.objects.filter(user=user, key=key).first()
    if reservation is None:
        raise NotFound(_("No reservation with key %(key)s.") % {"key": key[:60]})
    return reservation


# --- the reaper ------------------------------------------------------------------------------


def owner_liveness_from_settings() -> Callable[[str, str], bool]:
    """An is_owner_live(owner_type, owner_id) built from SAGASMITH_QUOTA_OWNER_LIVENESS
    ({owner_type: "dotted.path"} to callables taking owner_id and returning bool).

    An owner type with no registered checker counts as live: the reaper never frees a
    reservation it cannot prove is abandoned (it logs the gap instead)."""
    registry = getattr(settings, "SAGASMITH_QUOTA_OWNER_LIVENESS", {}) or {}
    checkers = {owner_type: import_string(path) for owner_type, path in registry.items()}

    def is_owner_live(owner_type: str, owner_id: str) -> bool:
        checker = checkers.get(owner_type)
        if checker is None:
            logger.warning("quota reaper: no liveness checker for owner type %r", owner_type)
            return True
        return bool(checker(owner_id))

    return is_owner_live


def _live_or_unknown(is_owner_live: Callable[[str, str], bool], owner_type: str, owner_id: str):
    """Whether the owner is live; a check that fails keeps the hold (a later run asks again)
    instead of stopping the run for every other hold."""
    try:
        return is_owner_live(owner_type, owner_id)
    except Exception:
        logger.exception("Could not tell whether %s %s is live", owner_type, owner_id)
        return True


def quota_reap_expired(
    *,
    now: datetime | None = None,
    is_owner_live: Callable[[str, str], bool] | None = None,
    limit: int = 1000,
) -> int:
    """Expire active reservations whose heartbeat lapsed and whose owner is not live, returning
    their credits; at most `limit` a run, looked at `limit` at a time. A heartbeat racing the
    reaper wins (the UPDATE re-checks expires_at). Returns the number reaped."""
    now = now or timezone.now()
    is_owner_live = is_owner_live or owner_liveness_from_settings()
    lapsed = Reservation.objects.filter(
        status=Reservation.Status.ACTIVE, expires_at__lte=now
    ).order_by("expires_at", "pk")
    reaped = 0
    after = None
    # Batches in expiry order, each after the last one seen: holds whose owners are live stay
    # active, and must not hide the abandoned ones behind them from every later run.
    while reaped < limit:
        batch = lapsed
        if after is not None:
            batch = batch.filter(
                Q(expires_at__gt=after[0]) | Q(expires_at=after[0], pk__gt=after[1])
            )
        candidates = list(batch.values_list("pk", "owner_type", "owner_id", "expires_at")[:limit])
        for pk, owner_type, owner_id, _expires_at in candidates:
            if reaped == limit:
                break
            if owner_type and _live_or_unknown(is_owner_live, owner_type, owner_id):
                continue
            with transaction.atomic():
                if _close_and_refund(
                    reservation_id=pk,
                    status=Reservation.Status.EXPIRED,
                    reason="reaped: heartbeat lapsed and owner not live",
                    extra=Q(expires_at__lte=now),
                ):
                    reaped += 1
        if len(candidates) < limit:
            break
        after = (candidates[-1][3], candidates[-1][0])
    if reaped:
        logger.info("quota reaper freed %d reservations", reaped)
    return reaped
