"""A deleted user's quota account is kept for its ledger; there is no one to serve, so its plan
cannot change: the service refuses with the reason, and the admin shows the account read-only
and says why instead of offering a plan that would grant credits to nobody."""

import html as html_lib

import pytest

from apps.core.errors import Conflict
from apps.core.models import AuditEvent
from apps.quota import services
from apps.quota.models import Plan, QuotaGrant

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept_account(make_user):
    small = Plan.objects.create(slug="small", name="Small", periodic_grant=0, period="none")
    leaving = make_user("leaving@example.test")
    account = services.quota_account_for(user=leaving, plan=small)
    leaving.delete()
    account.refresh_from_db()
    return account


def test_the_service_refuses_to_change_a_deleted_users_plan(kept_account, make_user):
    pro = Plan.objects.create(slug="pro", name="Pro", periodic_grant=500)
    with pytest.raises(Conflict) as refused:
        services.quota_account_plan_change(
            account=kept_account, plan=pro, actor=make_user("staff@example.test", is_staff=True)
        )
    assert (refused.value.code, refused.value.message) == (
        "quota_account_user_deleted",
        "This account's user was deleted: it is kept for its ledger, and its plan cannot change.",
    )
    kept_account.refresh_from_db()
    assert kept_account.plan.slug == "small"
    assert not QuotaGrant.objects.filter(account=kept_account).exists()
    assert not AuditEvent.objects.filter(action="quota.account.plan_change").exists()


def test_the_admin_shows_a_deleted_users_account_read_only_and_says_why(staff_client, kept_account):
    client, _staff = staff_client
    pro = Plan.objects.create(slug="pro", name="Pro", periodic_grant=500)
    url = f"/admin/quota/quotaaccount/{kept_account.pk}/change/"
    page = client.get(url)
    html = html_lib.unescape(page.content.decode())
    assert page.status_code == 200
    assert 'name="plan"' not in html
    assert (
        "This account's user was deleted: it is kept for its ledger, and its plan and credits"
        " no longer change."
    ) in html
    response = client.post(url, {"plan": str(pro.pk)})
    assert response.status_code == 403
    kept_account.refresh_from_db()
    assert kept_account.plan.slug == "small"
    assert not QuotaGrant.objects.filter(account=kept_account).exists()
    assert not AuditEvent.objects.filter(action="quota.account.plan_change").exists()
