"""A ledger page whose `before` lies above the newest entry (a stale or hand-made link) is the
newest page: it offers no "Newer entries" link, which would only lead back to the same page."""

import pytest

from apps.quota.models import LedgerEntry

from .test_ledger_pages import pager

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("above", [1, 10**9])
def test_a_page_above_the_newest_entry_links_only_to_older_entries(client, user, funded, above):
    account = funded(user, *[1] * 30)
    ids = list(LedgerEntry.objects.filter(account=account).values_list("id", flat=True))
    client.force_login(user)
    url = f"/usage/?before={ids[0] + above}"
    assert pager(client, url) == [("Older entries", f"/usage/?before={ids[24]}")]
    assert pager(client, url) == pager(client, "/usage/")


def test_a_page_one_entry_below_the_newest_still_links_to_the_newest(client, user, funded):
    account = funded(user, *[1] * 30)
    ids = list(LedgerEntry.objects.filter(account=account).values_list("id", flat=True))
    client.force_login(user)
    assert pager(client, f"/usage/?before={ids[0]}") == [
        ("Newer entries", "/usage/"),
        ("Older entries", f"/usage/?before={ids[25]}"),
    ]
