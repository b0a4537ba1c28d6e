"""The usage page's ledger says what each entry is in words with a capital, as its grants
table says a grant's source ("Staff grant"), not as the lowercase kind label ("grant")."""

import pytest

from apps.quota import services
from apps.quota.models import Plan, QuotaGrant

pytestmark = pytest.mark.django_db


def test_the_ledger_badges_say_each_kind_in_words(client, make_user):
    import re

    user = make_user("reader@example.test")
    staff = make_user("staff@example.test", is_staff=True)
    plan = Plan.objects.create(slug="zero", name="Zero", periodic_grant=0, period="none")
    account = services.quota_account_for(user=user, plan=plan)
    services.quota_grant(account=account, amount=9, source=QuotaGrant.Source.STAFF, actor=staff)
    kept = services.quota_grant(account=account, amount=4, source=QuotaGrant.Source.STAFF,
                                actor=staff)  # fmt: skip
    held = services.quota_reserve(user=user, amount=3, key="turn-1", owner_type="room_turn",
                                  owner_id="job-1")  # fmt: skip
    services.quota_settle(reservation=held, actual=2)
    services.quota_grant_withdraw(grant=kept, actor=staff)
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    badges = re.findall(r'<span class="badge badge--(\w+)">([^<]*)</span>', html)
    assert badges == [
        ("withdrawal", "Withdrawal"),
        ("charge", "Charge"),
        ("grant", "Grant"),
        ("grant", "Grant"),
    ]
