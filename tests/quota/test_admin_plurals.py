"""One credit reads "1 credit" in what the quota admin tells staff."""

import pytest

from apps.quota import services
from apps.quota.models import QuotaGrant

pytestmark = pytest.mark.django_db


def test_withdrawing_1_credit_says_1_credit_and_1_more_is_held(staff_client, make_user, funded):
    client, _ = staff_client
    user = make_user("player@example.test")
    account = funded(user, 2)
    services.quota_reserve(user=user, amount=1, key="busy")
    selected = {"action": "withdraw_unused", "_selected_action": [str(account.grants.get().pk)]}
    response = client.post("/admin/quota/quotagrant/", selected, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Withdrew 1 credit. 1 more is held by requests in progress; withdraw again once they "
        "finish."
    ]


def test_granting_1_credit_in_admin_says_1_credit(staff_client, make_user, funded):
    client, _ = staff_client
    player = make_user("player@example.test")
    funded(player, 2)
    response = client.post(
        "/admin/quota/quotagrant/add/", {"user": str(player.pk), "amount": "1"}, follow=True
    )
    assert QuotaGrant.objects.get(source="staff").amount == 1
    assert [str(m) for m in response.context["messages"]] == [
        "Granted 1 credit to player@example.test.",
        "The quota grant “1 credit (staff grant)” was added successfully.",
    ]
