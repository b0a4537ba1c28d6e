"""Every user has a quota account: open one for each user who has none yet.

Until now accounts were opened on first use, so staff could not credit users who had never
opened /usage/ or run a turn. Each new account gets what that first use gave it: the default
plan and the current period's plan grant (grant row, balance and ledger entry together, so
sum(grant.remaining) == balance + reserved holds). A frozen copy of quota_account_for and
quota_plan_grant_issue as of this migration: migrations must not import the app's code.
"""

from datetime import UTC, timedelta

from django.conf import settings
from django.db import IntegrityError, migrations, transaction
from django.utils import timezone


def _period_bounds(period, at):
    at = at.astimezone(UTC)
    day = at.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "daily":
        return day, day + timedelta(days=1)
    if period == "weekly":
        start = day - timedelta(days=day.weekday())
        return start, start + timedelta(days=7)
    if period == "monthly":
        start = day.replace(day=1)
        return start, (start + timedelta(days=32)).replace(day=1)
    return None


def open_missing_accounts(apps, schema_editor):
    User = apps.get_model(settings.AUTH_USER_MODEL)
    Plan = apps.get_model("quota", "Plan")
    QuotaAccount = apps.get_model("quota", "QuotaAccount")
    QuotaGrant = apps.get_model("quota", "QuotaGrant")
    LedgerEntry = apps.get_model("quota", "LedgerEntry")

    users = User.objects.exclude(pk__in=QuotaAccount.objects.values("user_id")).order_by("pk")
    if not users.exists():
        return
    plan = Plan.objects.filter(is_default=True).first()
    if plan is None:
        plan, _created = Plan.objects.get_or_create(
            slug="free",
            defaults={
                "name": "Free",
                "periodic_grant": 100,
                "period": "monthly",
                "grants_expire": True,
                "is_default": True,
            },
        )
    bounds = _period_bounds(plan.period, timezone.now())
    for user in users.iterator(chunk_size=500):
        try:
            with transaction.atomic():
                account = QuotaAccount.objects.create(user=user, plan=plan)
                if plan.periodic_grant <= 0 or bounds is None:
                    continue
                start, end = bounds
                note = f"{plan.name} plan, period from {start.date().isoformat()}"
                grant = QuotaGrant.objects.create(
                    account=account,
                    amount=plan.periodic_grant,
                    remaining=plan.periodic_grant,
                    source="plan",
                    period_start=start,
                    period_end=end,
                    expires_at=end if plan.grants_expire else None,
                    note=note,
                )
                account.balance = plan.periodic_grant
                account.save(update_fields=["balance", "updated_at"])
                LedgerEntry.objects.create(
                    account=account,
                    kind="grant",
                    amount=plan.periodic_grant,
                    balance_after=account.balance,
                    grant=grant,
                    description=note,
                )
        except IntegrityError:
            # The user's first request opened it meanwhile, with its grant: that one stands.
            continue


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("quota", "0003_ledger_withdrawal_kind"),
    ]

    # Reversing leaves the accounts: they are valid either way and their ledgers must stay.
    operations = [migrations.RunPython(open_missing_accounts, migrations.RunPython.noop)]
