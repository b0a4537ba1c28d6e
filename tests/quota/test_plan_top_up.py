"""Raising a plan's credits applies from each account's next period; staff can top up the
current period of the plan's accounts explicitly, with the difference a plan change grants."""

import pytest
from django.utils import timezone

from apps.core.models import AuditEvent
from apps.quota import services
from apps.quota.models import Plan, QuotaGrant

from .conftest import assert_invariant

pytestmark = pytest.mark.django_db

ACTION = "Top up the current period of accounts on the selected plans"


@pytest.fixture
def pro():
    """A plan of 100 credits a month."""
    return Plan.objects.create(slug="pro", name="Pro", periodic_grant=100, period="monthly")


def run_top_up(client, plan, **kwargs):
    """Staff run the top-up action on `plan` from the plan list."""
    return client.post(
        "/admin/quota/plan/",
        {"action": "top_up_current_period", "_selected_action": [str(plan.pk)]},
        **kwargs,
    )


def plan_form(plan, **changes):
    data = {
        "name": plan.name,
        "slug": plan.slug,
        "periodic_grant": str(plan.periodic_grant),
        "period": plan.period,
        "grants_expire": "on" if plan.grants_expire else "",
    }
    data.update(changes)
    return data


def test_plan_form_says_a_new_allowance_applies_from_each_accounts_next_period(staff_client):
    client, _ = staff_client
    page = client.get("/admin/quota/plan/add/").content.decode()
    assert (
        "A change applies from each account’s next period. To give the plan’s accounts the "
        f"difference for the current period now, use “{ACTION}” on the plan list."
    ) in page


def test_raising_a_plans_credits_says_accounts_get_them_from_their_next_period(
    staff_client, make_user, pro
):
    client, _ = staff_client
    account = services.quota_account_for(user=make_user("player@example.test"), plan=pro)
    response = client.post(
        f"/admin/quota/plan/{pro.pk}/change/", plan_form(pro, periodic_grant="500"), follow=True
    )
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        "Accounts on Pro get 500 credits from their next period. To give them the difference "
        f"for the current period now, select the plan and use “{ACTION}”.",
        f'The plan “<a href="/admin/quota/plan/{pro.pk}/change/">Pro</a>” was changed '
        "successfully.",
    ]
    account.refresh_from_db()
    assert account.balance == 100


def test_topping_up_a_raised_plan_grants_each_account_the_difference_for_this_period(
    staff_client, make_user, pro
):
    client, staff = staff_client
    first = services.quota_account_for(user=make_user("a@example.test"), plan=pro)
    second = services.quota_account_for(user=make_user("b@example.test"), plan=pro)
    services.quota_grant(account=second, amount=7, source="staff", actor=staff)
    Plan.objects.filter(pk=pro.pk).update(periodic_grant=500)
    response = run_top_up(client, pro, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Pro: topped up 2 accounts with 800 credits for the current period."
    ]
    start, end = services.plan_period_bounds(plan=pro, at=timezone.now())
    for account, balance in ((first, 500), (second, 507)):
        account.refresh_from_db()
        assert account.balance == balance
        top_up = account.grants.get(source=QuotaGrant.Source.UPGRADE)
        assert (top_up.amount, top_up.actor, top_up.period_start, top_up.expires_at) == (
            400,
            staff,
            start,
            end,
        )
        assert_invariant(account)
    assert list(
        AuditEvent.objects.filter(action="quota.plan.top_up").values_list("subject_id", "details")
    ) == [(str(pro.pk), {"accounts": 2, "granted": 800, "periodic_grant": 500})]
    # Done once: a second run finds every account already at the plan's allowance.
    response = run_top_up(client, pro, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Pro: every account already has this period’s 500 credits."
    ]
    assert QuotaGrant.objects.filter(source=QuotaGrant.Source.UPGRADE).count() == 2


def test_topping_up_needs_the_right_to_grant_not_just_to_look(client, make_user, pro):
    from django.contrib.auth.models import Permission

    viewer = make_user("support@example.test", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_plan"))
    client.force_login(viewer)
    account = services.quota_account_for(user=make_user("player@example.test"), plan=pro)
    Plan.objects.filter(pk=pro.pk).update(periodic_grant=500)
    page = client.get("/admin/quota/plan/")
    assert page.status_code == 200
    assert "top_up_current_period" not in page.content.decode()
    run_top_up(client, pro)
    account.refresh_from_db()
    assert account.balance == 100
