"""A ledger page past the oldest entry (a hand-made or stale link) says so and links back to
the newest entries; it does not claim there is no usage at all. `before` is an entry id, so
zero or less names no page: it shows the newest entries, as any other unusable value does."""

import re

import pytest

from apps.quota.models import LedgerEntry

from .test_ledger_pages import pager

pytestmark = pytest.mark.django_db

_EMPTY = re.compile(r'<td colspan="5" class="muted">(.*?)</td>', re.DOTALL)


def ledger_rows(client, url) -> int:
    html = client.get(url).content.decode()
    body = html.split('id="usage-ledger"', 1)[1].split("</table>", 1)[0]
    return body.count("<time ")


def test_a_page_past_the_oldest_entry_says_there_are_none_that_old_and_links_to_the_newest(
    client, user, funded
):
    account = funded(user, *[1] * 30)
    oldest = (
        LedgerEntry.objects.filter(account=account).order_by("id").values_list("id", flat=True)[0]
    )
    client.force_login(user)
    url = f"/usage/?before={oldest}"
    html = client.get(url).content.decode()
    assert _EMPTY.findall(html) == ["No entries this old."]
    assert "No usage yet." not in html
    assert pager(client, url) == [("Newest entries", "/usage/")]


@pytest.mark.parametrize("before", ["0", "-3"])
def test_before_zero_or_less_shows_the_newest_page(client, user, funded, before):
    funded(user, *[1] * 30)
    client.force_login(user)
    newest = pager(client, "/usage/")
    assert pager(client, f"/usage/?before={before}") == newest
    assert ledger_rows(client, f"/usage/?before={before}") == 25


def test_an_account_without_entries_still_says_no_usage_yet(client, user):
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    assert _EMPTY.findall(html) == ["No usage yet."]
    assert pager(client, "/usage/") == []
