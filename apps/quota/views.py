"""The usage page: balance, active reservations, grants and the ledger."""

from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils import timezone

from . import selectors

LEDGER_PAGE = 25
RESERVATIONS_LISTED = 50


@login_required
def usage(request):
    # Not opened here: an account is written only when something writes to it.
    account = selectors.quota_account_read(user=request.user)
    # As of now, without writing: an expired grant's unused credits are left out here and
    # forfeited into the ledger by the periodic expiry run or the next reservation.
    credits = selectors.quota_credits(account=account)
    try:
        before = int(request.GET["before"]) if request.GET.get("before") else None
    except ValueError:
        before = None
    if before is not None and before <= 0:
        # Entry ids start at 1: no page lies before zero, so show the newest one.
        before = None
    entries, next_before = selectors.quota_ledger_page(
        account=account, before=before, limit=LEDGER_PAGE, running_balance=True
    )
    newer = None
    # An empty older page (past the oldest entry) links only to the newest entries.
    if before is not None and entries:
        newer = selectors.quota_ledger_newer(
            account=account, after=entries[0].id, limit=LEDGER_PAGE
        )
    active = selectors.quota_active_reservations(account=account)
    reservations = list(active[:RESERVATIONS_LISTED])
    # timesince says "0 minutes" for most turns in progress: those say "just now".
    just_now = timezone.now() - timedelta(minutes=1)
    today = timezone.localdate()
    for reservation in reservations:
        reservation.just_started = reservation.created_at > just_now
        # "Held until" gives the time alone for a hold ending today, the date too otherwise.
        reservation.held_today = timezone.localdate(reservation.expires_at) == today
    # Counted only when the list is full: how many the page leaves off.
    more_reservations = (
        active.count() - RESERVATIONS_LISTED if len(reservations) == RESERVATIONS_LISTED else 0
    )
    # What each charge and hold was for ("Room turn in <campaign>"), in one query for the page.
    selectors.quota_uses_attach(account=account, entries=entries, reservations=reservations)
    return render(
        request,
        "quota/usage.html",
        {
            "account": credits,
            "total_credits": credits.balance + credits.reserved,
            "next_grant_at": selectors.quota_next_grant_at(account=account),
            "reservations": reservations,
            "more_reservations": more_reservations,
            "grants": selectors.quota_grants_for(account=account, limit=25),
            "entries": entries,
            "next_before": next_before,
            "newer": newer,
            "paged": before is not None,
        },
    )
