"""Quota reads for the usage API and page (each reads only the caller's own account)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from .models import LedgerAllocation, LedgerEntry, QuotaAccount, QuotaGrant, Reservation
from .services import plan_period_bounds

LEDGER_PAGE_MAX = 100


def quota_next_grant_at(*, account: QuotaAccount, now: datetime | None = None) -> datetime | None:
    """When the plan's next periodic grant is due, or None if the plan grants nothing."""
    if account.plan.periodic_grant <= 0:
        return None
    bounds = plan_period_bounds(plan=account.plan, at=now or timezone.now())
    return bounds[1] if bounds else None


def quota_balance(*, account: QuotaAccount) -> dict[str, Any]:
    next_grant = quota_next_grant_at(account=account)
    return {
        "balance": account.balance,
        "reserved": account.reserved,
        "plan": {
            "slug": account.plan.slug,
            "name": account.plan.name,
            "periodic_grant": account.plan.periodic_grant,
            "period": account.plan.period,
        },
        "next_grant_at": next_grant.isoformat().replace("+00:00", "Z") if next_grant else None,
    }


def quota_ledger_page(
    *, account: QuotaAccount, before: int | None = None, limit: int = 50
) -> tuple[list[LedgerEntry], int | None]:
    """Newest-first ledger entries with id < before; returns (entries, next `before` or None).
    Keyset pagination on the append-only id, so pages never shift as entries are added."""
    limit = max(1, min(limit, LEDGER_PAGE_MAX))
    queryset = (
        LedgerEntry.objects.filter(account=account)
        .select_related("reservation")
        .prefetch_related(Prefetch("allocations", queryset=LedgerAllocation.objects.order_by("id")))
        .order_by("-id")
    )
    if before is not None:
        queryset = queryset.filter(id__lt=before)
    rows = list(queryset[: limit + 1])
    has_more = len(rows) > limit
    rows = rows[:limit]
    return rows, (rows[-1].id if has_more else None)


def quota_active_reservations(*, account: QuotaAccount) -> QuerySet[Reservation]:
    return Reservation.objects.filter(account=account, status=Reservation.Status.ACTIVE).order_by(
        "-created_at"
    )


def quota_grants_for(*, account: QuotaAccount, limit: int = 50) -> list[QuotaGrant]:
    return list(QuotaGrant.objects.filter(account=account).order_by("-created_at")[:limit])
