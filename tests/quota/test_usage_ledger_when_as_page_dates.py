"""The usage page's ledger says when each entry was made as the rest of the page writes dates
("Dec 6, 2026, 7:06 AM UTC"), not as "12/06/2026", which reads as June 12 in much of the world."""

import pytest
from django.template.defaultfilters import date as date_filter

from apps.quota.models import LedgerEntry

from .test_usage_page import table

pytestmark = pytest.mark.django_db


def test_ledger_entries_say_when_in_the_pages_date_format(client, user, funded):
    funded(user, 20)
    entry = LedgerEntry.objects.get()
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-ledger")
    assert [when for (when, _), *_rest in rows] == [
        f"{date_filter(entry.created_at, 'M j, Y, g:i A')} UTC"
    ]
