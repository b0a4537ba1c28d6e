"""A staff grant's note reaches the user whole: the grant form says the user sees it on their
usage page, and it may run to 200 characters, but the page cut it at 60, in the grants table
and in the ledger, so the user never read the end of it anywhere."""

import pytest

from apps.quota import services
from apps.quota.models import QuotaGrant

from .test_usage_page import ledger, table

pytestmark = pytest.mark.django_db

NOTE = (
    "Sorry about Friday's outage: these credits replace the turns you lost, and they never "
    "expire. Write to support if anything still looks wrong on this page."
)


def test_the_usage_page_shows_a_staff_grants_whole_note(client, user, zero_plan):
    assert 60 < len(NOTE) <= 200
    account = services.quota_account_for(user=user, plan=zero_plan)
    services.quota_grant(account=account, amount=25, source=QuotaGrant.Source.STAFF, note=NOTE)
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    assert [source for (source, _), *_rest in table(html, "usage-grants")] == [
        f"Staff grant {NOTE}"
    ]
    assert ledger(html) == [("Grant", NOTE, None, "+25", "25")]
