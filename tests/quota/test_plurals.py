"""One credit reads "1 credit" on the usage page and in the errors the API returns."""

import pytest

from apps.core.errors import Conflict, QuotaExceeded
from apps.quota import services
from apps.quota.models import Plan

pytestmark = pytest.mark.django_db


def test_usage_page_reads_1_credit_for_a_plan_worth_1_credit(client, user):
    plan = Plan.objects.create(slug="one", name="One", periodic_grant=1, period="monthly")
    services.quota_account_for(user=user, plan=plan)
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    assert '<dd class="usage-stat__text">1 credit, monthly</dd>' in html


def test_usage_page_reads_1_credit_when_a_turn_holds_the_only_credit(client, user, funded):
    funded(user, 1)
    services.quota_reserve(user=user, amount=1, key="k1")
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    assert (
        '<p class="usage-held small" id="usage-held">'
        "Now: 0 available + 1 held by turns in progress = 1 credit.</p>"
    ) in html


def test_a_short_balance_says_1_more_is_held(user, funded):
    funded(user, 1)
    services.quota_reserve(user=user, amount=1, key="k1")
    with pytest.raises(QuotaExceeded) as exc:
        services.quota_reserve(user=user, amount=1, key="k2")
    assert exc.value.message == (
        "You have 0 credits available; this needs 1. "
        "1 more is held until your requests in progress finish."
    )


def test_a_reused_key_says_it_was_used_for_1_credit(user, funded):
    funded(user, 5)
    services.quota_reserve(user=user, amount=1, key="k1")
    with pytest.raises(Conflict) as exc:
        services.quota_reserve(user=user, amount=2, key="k1")
    assert exc.value.message == "Reservation key k1 was already used for 1 credit."
