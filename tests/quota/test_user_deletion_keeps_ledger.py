"""Staff can delete a user who has used credits: the user goes, their quota account, grants,
reservations and ledger stay (the ledger is an audit record), named by the deleted user's id."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_staff_delete_a_user_with_quota_rows_and_the_ledger_is_kept(make_user):
    from apps.accounts.models import User
    from apps.quota.models import LedgerEntry, Plan, QuotaGrant, Reservation
    from apps.quota.services import quota_account_for, quota_grant, quota_reserve, quota_settle

    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    leaving = make_user("leaving@example.test")
    plan = Plan.objects.create(slug="zero", name="Zero", periodic_grant=0, period="none")
    account = quota_account_for(user=leaving, plan=plan)
    quota_grant(account=account, amount=100, source=QuotaGrant.Source.STAFF, actor=staff)
    spent = quota_reserve(user=leaving, amount=10, key="turn-1", owner_type="room_turn",
                          owner_id="job-1")  # fmt: skip
    quota_settle(reservation=spent, actual=7)
    ledger = list(LedgerEntry.objects.filter(account=account).values_list("kind", "amount"))
    client = Client()
    client.force_login(staff)

    page = client.get(f"/admin/accounts/user/{leaving.pk}/delete/")
    assert page.status_code == 200
    assert "Cannot delete user" not in page.content.decode()
    response = client.post(f"/admin/accounts/user/{leaving.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not User.objects.filter(pk=leaving.pk).exists()
    account.refresh_from_db()
    assert (account.user_id, account.former_user_id) == (None, leaving.pk)
    assert str(account) == f"Deleted user {leaving.pk}"
    assert (account.balance, account.reserved) == (93, 0)
    assert list(LedgerEntry.objects.filter(account=account).values_list("kind", "amount")) == (
        ledger
    )
    assert ledger == [("charge", 7), ("grant", 100)]
    assert list(Reservation.objects.filter(account=account).values_list("user", "key")) == [
        (None, "turn-1")
    ]


def test_a_deleted_users_account_is_listed_by_their_id(make_user):
    from apps.quota.services import quota_account_for

    staff = make_user("staff@example.test", is_staff=True, is_superuser=True)
    leaving = make_user("leaving@example.test")
    quota_account_for(user=leaving)
    leaving_id = leaving.pk
    leaving.delete()
    client = Client()
    client.force_login(staff)
    page = client.get("/admin/quota/quotaaccount/").content.decode()
    assert f"Deleted user {leaving_id}</a>" in page


def test_a_deleted_users_account_gets_no_more_plan_grants(make_user):
    from apps.quota.models import Plan, QuotaGrant
    from apps.quota.services import (
        quota_account_for,
        quota_issue_periodic_grants,
        quota_plan_top_up,
    )

    plan = Plan.objects.create(slug="daily", name="Daily", periodic_grant=0, period="daily")
    staying = quota_account_for(user=make_user("staying@example.test"), plan=plan)
    leaving = make_user("leaving@example.test")
    kept = quota_account_for(user=leaving, plan=plan)
    leaving.delete()
    Plan.objects.filter(pk=plan.pk).update(periodic_grant=10)

    assert quota_issue_periodic_grants() == 1
    Plan.objects.filter(pk=plan.pk).update(periodic_grant=15)
    plan.refresh_from_db()
    assert quota_plan_top_up(plan=plan, actor=None) == (1, 5)
    assert sorted(QuotaGrant.objects.values_list("account", "amount")) == sorted(
        [(staying.pk, 10), (staying.pk, 5)]
    )
    assert not QuotaGrant.objects.filter(account=kept).exists()
