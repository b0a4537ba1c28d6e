"""Staff withdrawing credits takes only usable ones: an expired grant's unused credits, not yet
written off by the expiry run, are written off as the expiry they are (the user's ledger says
they expired, not that staff took them), before anything is withdrawn."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.core.models import AuditEvent
from apps.quota.models import LedgerEntry, QuotaGrant, Reservation

from .conftest import assert_invariant

pytestmark = pytest.mark.django_db


def expired_ten_and_five_lasting(user, funded):
    """10 credits whose expiry passed (the expiry run has not come) and 5 that never expire."""
    account = funded(user, 10, 5, expires=[timezone.now() + timedelta(days=1), None])
    QuotaGrant.objects.filter(account=account, amount=10).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    return account


def ledger(account) -> list[tuple]:
    return list(
        LedgerEntry.objects.filter(account=account)
        .order_by("id")
        .values_list("kind", "amount", "balance_after", "description")
    )


def withdraw(client, grant) -> str:
    selected = {"action": "withdraw_unused", "_selected_action": [str(grant.pk)]}
    response = client.post("/admin/quota/quotagrant/", selected, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_withdrawing_an_expired_grant_writes_its_expiry_not_a_withdrawal(
    staff_client, make_user, funded
):
    client, staff = staff_client
    account = expired_ten_and_five_lasting(make_user("player@example.test"), funded)
    page = withdraw(client, account.grants.get(amount=10))
    assert "Withdrew 0 credits." in page
    assert ledger(account) == [
        ("grant", 10, 10, "system"),
        ("grant", 5, 15, "system"),
        ("expire", 10, 5, "Unused credits expired"),
    ]
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (5, 0)
    assert list(
        AuditEvent.objects.filter(action="quota.grant.withdraw").values_list("actor", "details")
    ) == [(staff.pk, {"withdrawn": 0, "left": 0, "note": ""})]
    assert_invariant(account)


def test_withdrawing_a_lasting_grant_writes_the_expiry_due_first(staff_client, make_user, funded):
    client, _ = staff_client
    account = expired_ten_and_five_lasting(make_user("player@example.test"), funded)
    page = withdraw(client, account.grants.get(amount=5))
    assert "Withdrew 5 credits." in page
    assert ledger(account) == [
        ("grant", 10, 10, "system"),
        ("grant", 5, 15, "system"),
        ("expire", 10, 5, "Unused credits expired"),
        ("withdrawal", 5, 0, "Withdrawn by staff"),
    ]
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (0, 0)
    assert_invariant(account)


def test_withdrawing_leaves_expired_credits_a_turn_holds_on_their_grant(user, funded):
    from apps.quota import services

    account = funded(user, 10, 5, expires=[timezone.now() + timedelta(hours=1), None])
    services.quota_reserve(user=user, amount=6, key="k1")
    expiring = account.grants.get(amount=10)
    expired = timezone.now() - timedelta(minutes=1)
    QuotaGrant.objects.filter(pk=expiring.pk).update(expires_at=expired)
    # The turn reserved before the expiry.
    Reservation.objects.filter(account=account).update(created_at=expired - timedelta(minutes=1))
    assert services.quota_grant_withdraw(grant=expiring, actor=None) == (0, 6)
    assert ledger(account)[2:] == [("expire", 4, 5, "Unused credits expired")]
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (5, 6)
    assert_invariant(account)
