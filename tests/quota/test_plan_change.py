"""Switching an account's plan: what the new plan grants at once, and what the periodic task
issues afterwards."""

from datetime import UTC, datetime

import pytest

from apps.core.models import AuditEvent
from apps.quota import services
from apps.quota.models import LedgerEntry, Plan, QuotaAccount, QuotaGrant

from .conftest import assert_invariant

pytestmark = pytest.mark.django_db

DEC_10 = datetime(2031, 12, 10, 9, tzinfo=UTC)
DEC_15 = datetime(2031, 12, 15, 12, tzinfo=UTC)
DEC_1 = datetime(2031, 12, 1, tzinfo=UTC)
JAN_1 = datetime(2032, 1, 1, tzinfo=UTC)


def plan(slug, amount, period="monthly", **extra):
    return Plan.objects.create(
        slug=slug, name=slug.capitalize(), periodic_grant=amount, period=period, **extra
    )


@pytest.fixture
def small_account(make_user):
    """An account on a 100-credit monthly plan with December's plan grant issued."""
    account = QuotaAccount.objects.create(user=make_user(), plan=plan("small", 100))
    services.quota_plan_grant_issue(account=account, now=DEC_10)
    account.refresh_from_db()
    return account


def grants(account):
    return [
        (g.source, g.amount, g.period_start, g.period_end, g.expires_at, g.note)
        for g in account.grants.order_by("created_at")
    ]


def test_an_upgrade_mid_month_grants_the_difference_at_once(small_account, make_user):
    staff = make_user(is_staff=True)
    pro = plan("pro", 500)
    change = services.quota_account_plan_change(
        account=small_account, plan=pro, actor=staff, now=DEC_15
    )
    grant = change.grant
    assert (change.previous.slug, change.granted_before) == ("small", 100)
    small_account.refresh_from_db()
    assert (small_account.plan, small_account.balance) == (pro, 500)
    assert grants(small_account) == [
        ("plan", 100, DEC_1, JAN_1, JAN_1, "Small plan, period from 2031-12-01"),
        ("upgrade", 400, DEC_1, JAN_1, JAN_1, "Upgrade to Pro plan, period from 2031-12-01"),
    ]
    assert grant == small_account.grants.get(source="upgrade")
    assert grant.actor == staff
    entry = LedgerEntry.objects.get(grant=grant)
    assert (entry.kind, entry.amount, entry.balance_after, entry.description) == (
        "grant",
        400,
        500,
        "Upgrade to Pro plan, period from 2031-12-01",
    )
    events = AuditEvent.objects.filter(action__startswith="quota.")
    assert [(e.actor, e.action, e.subject_id, e.details) for e in events] == [
        (
            staff,
            "quota.account.plan_change",
            str(small_account.pk),
            {
                "user": str(small_account.user_id),
                "from_plan": "small",
                "to_plan": "pro",
                "granted": 400,
                "grant": str(grant.pk),
            },
        )
    ]
    assert_invariant(small_account)


def test_after_an_upgrade_the_next_period_brings_the_new_plan_once(small_account):
    services.quota_account_plan_change(
        account=small_account, plan=plan("pro", 500), actor=None, now=DEC_15
    )
    assert services.quota_issue_periodic_grants(now=DEC_15) == 0
    assert services.quota_issue_periodic_grants(now=JAN_1) == 1
    assert services.quota_issue_periodic_grants(now=JAN_1) == 0
    january = small_account.grants.get(period_start=JAN_1)
    assert (january.source, january.amount) == ("plan", 500)


def test_a_second_upgrade_in_the_period_grants_only_what_is_still_missing(small_account):
    services.quota_account_plan_change(
        account=small_account, plan=plan("pro", 500), actor=None, now=DEC_15
    )
    change = services.quota_account_plan_change(
        account=small_account, plan=plan("max", 1000), actor=None, now=DEC_15
    )
    assert (change.granted_before, change.grant.amount) == (500, 500)
    small_account.refresh_from_db()
    assert small_account.balance == 1000
    # Back to Pro and up to Max again: Max's allowance for December is already granted.
    services.quota_account_plan_change(
        account=small_account, plan=Plan.objects.get(slug="pro"), actor=None, now=DEC_15
    )
    again = services.quota_account_plan_change(
        account=small_account, plan=Plan.objects.get(slug="max"), actor=None, now=DEC_15
    )
    assert (again.granted_before, again.grant) == (1000, None)
    small_account.refresh_from_db()
    assert small_account.balance == 1000
    assert_invariant(small_account)


def test_a_downgrade_takes_nothing_back_and_the_next_period_brings_the_smaller_plan(
    small_account, make_user
):
    staff = make_user(is_staff=True)
    tiny = plan("tiny", 30)
    change = services.quota_account_plan_change(
        account=small_account, plan=tiny, actor=staff, now=DEC_15
    )
    assert (change.grant, change.granted_before) == (None, 100)
    small_account.refresh_from_db()
    assert (small_account.plan, small_account.balance) == (tiny, 100)
    event = AuditEvent.objects.get(action="quota.account.plan_change")
    assert (event.actor, event.details["granted"], event.details["grant"]) == (staff, 0, None)
    assert services.quota_issue_periodic_grants(now=JAN_1) == 1
    assert small_account.grants.get(period_start=JAN_1).amount == 30


def test_an_upgrade_to_credits_that_never_expire_grants_the_difference_without_expiry(
    small_account,
):
    lasting = plan("lasting", 300, grants_expire=False)
    grant = services.quota_account_plan_change(
        account=small_account, plan=lasting, actor=None, now=DEC_15
    ).grant
    assert (grant.amount, grant.expires_at) == (200, None)


def test_a_switch_from_a_plan_without_credits_grants_the_new_plans_period(make_user, zero_plan):
    account = QuotaAccount.objects.create(user=make_user(), plan=zero_plan)
    grant = services.quota_account_plan_change(
        account=account, plan=plan("pro", 500), actor=None, now=DEC_15
    ).grant
    assert (grant.source, grant.amount, grant.period_start, grant.expires_at) == (
        "plan",
        500,
        DEC_1,
        JAN_1,
    )
    assert services.quota_issue_periodic_grants(now=DEC_15) == 0


def test_a_switch_to_a_weekly_plan_grants_its_current_week(small_account):
    weekly = plan("weekly", 50, period="weekly")
    grant = services.quota_account_plan_change(
        account=small_account, plan=weekly, actor=None, now=DEC_15
    ).grant
    # 2031-12-15 is a Monday.
    monday, next_monday = datetime(2031, 12, 15, tzinfo=UTC), datetime(2031, 12, 22, tzinfo=UTC)
    assert (grant.source, grant.amount, grant.period_start, grant.period_end) == (
        "plan",
        50,
        monday,
        next_monday,
    )
    small_account.refresh_from_db()
    assert small_account.balance == 150
    assert services.quota_issue_periodic_grants(now=DEC_15) == 0
    assert services.quota_issue_periodic_grants(now=next_monday) == 1


def test_a_switch_from_daily_to_monthly_on_the_first_grants_the_month(make_user):
    account = QuotaAccount.objects.create(user=make_user(), plan=plan("daily", 10, period="daily"))
    first_noon = datetime(2031, 12, 1, 12, tzinfo=UTC)
    services.quota_plan_grant_issue(account=account, now=first_noon)
    # The day's grant and the month's start at the same moment, but are different periods.
    grant = services.quota_account_plan_change(
        account=account, plan=plan("monthly", 300), actor=None, now=first_noon
    ).grant
    assert (grant.source, grant.amount, grant.period_start, grant.period_end) == (
        "plan",
        300,
        DEC_1,
        JAN_1,
    )
    account.refresh_from_db()
    assert account.balance == 310
    assert services.quota_issue_periodic_grants(now=first_noon) == 0
    assert QuotaGrant.objects.filter(account=account).count() == 2


def test_a_periodic_run_that_read_the_account_before_a_plan_change_issues_only_the_new_plan(
    make_user,
):
    account = QuotaAccount.objects.create(user=make_user(), plan=plan("small", 100))
    # The periodic run reads its accounts in chunks; staff switch this one to a weekly plan
    # at the start of January before the run reaches it.
    read_by_the_run = QuotaAccount.objects.select_related("plan").get(pk=account.pk)
    weekly = plan("weekly", 50, period="weekly")
    services.quota_account_plan_change(account=account, plan=weekly, actor=None, now=JAN_1)
    assert services.quota_plan_grant_issue(account=read_by_the_run, now=JAN_1) is None
    account.refresh_from_db()
    assert [(g.amount, g.period_start) for g in account.grants.all()] == [
        (50, datetime(2031, 12, 29, tzinfo=UTC))
    ]
    assert account.balance == 50
