"""A grant's ledger entry names its source in its details as the grants table does, with a
capital ("Plan period", "System"): it is stored as the source's label, "system", mid-sentence
style, and was shown so on the usage page and in the ledger API."""

import pytest

from apps.quota.models import LedgerEntry

from .test_usage_page import ledger

pytestmark = pytest.mark.django_db


def test_a_grant_without_a_note_reads_its_source_with_a_capital(client, api_client, user, funded):
    funded(user, 20)
    assert list(LedgerEntry.objects.values_list("description", flat=True)) == ["system"]
    client.force_login(user)
    assert ledger(client.get("/usage/").content.decode()) == [
        ("Grant", "System", None, "+20", "20")
    ]
    api_client.force_login(user)
    [entry] = api_client.get("/api/usage/ledger").json()["results"]
    assert entry["description"] == "System"
