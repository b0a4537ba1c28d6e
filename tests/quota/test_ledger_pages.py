"""The usage page's ledger pages link to the page before them, not only to the newest one."""

from html.parser import HTMLParser

import pytest

from apps.quota.models import LedgerEntry

pytestmark = pytest.mark.django_db


class _Pager(HTMLParser):
    """(text, href) of each link in the ledger's pager."""

    def __init__(self):
        super().__init__()
        self.inside, self.links, self._href = False, [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "nav" and attrs.get("class") == "pager":
            self.inside = True
        elif self.inside and tag == "a":
            self._href = attrs.get("href")
            self.links.append(["", self._href])

    def handle_endtag(self, tag):
        if tag == "nav":
            self.inside = False
        elif tag == "a":
            self._href = None

    def handle_data(self, data):
        if self._href is not None:
            self.links[-1][0] += data.strip()


def pager(client, url):
    parser = _Pager()
    parser.feed(client.get(url).content.decode())
    return [tuple(link) for link in parser.links]


def test_an_older_ledger_page_links_to_the_page_before_it(client, user, funded):
    account = funded(user, *[1] * 60)  # 60 entries: pages of 25, 25 and 10
    ids = list(LedgerEntry.objects.filter(account=account).values_list("id", flat=True))
    second, third = ids[24], ids[49]  # each page starts below the last entry of the one before
    client.force_login(user)
    assert pager(client, "/usage/") == [("Older entries", f"/usage/?before={second}")]
    assert pager(client, f"/usage/?before={second}") == [
        ("Newer entries", "/usage/"),
        ("Older entries", f"/usage/?before={third}"),
    ]
    assert pager(client, f"/usage/?before={third}") == [
        ("Newest", "/usage/"),
        ("Newer entries", f"/usage/?before={second}"),
    ]
