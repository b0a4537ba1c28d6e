"""The admin's account page: the credits usable now beside the stored balance, which still
counts an expired grant's unused credits until they are forfeited."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.quota.models import QuotaGrant

pytestmark = pytest.mark.django_db


def shown(response) -> list[tuple[str, str]]:
    """The page's read-only fields as (label, contents), in order."""
    return [
        (str(field.field["label"]), str(field.contents()))
        for fieldset in response.context["adminform"]
        for line in fieldset
        for field in line
        if field.is_readonly and field.field["name"] in {"balance", "usable_now", "reserved"}
    ]


def test_the_account_page_shows_what_is_usable_now_beside_the_stored_balance(
    staff_client, make_user, funded
):
    client, _ = staff_client
    later = timezone.now() + timedelta(days=1)
    account = funded(make_user("player@example.test"), 10, 5, expires=[later, None])
    # The first grant's expiry passes; the expiry run has not forfeited it yet.
    QuotaGrant.objects.filter(account=account, amount=10).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    response = client.get(f"/admin/quota/quotaaccount/{account.pk}/change/")
    assert response.status_code == 200
    assert shown(response) == [
        ("stored balance", "15"),
        ("Usable now", "5"),
        ("reserved credits", "0"),
    ]
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (15, 0)
