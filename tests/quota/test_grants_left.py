"""The usage page's grants: an expired grant shows only what reservations hold of it, read
beside the grant's stored `remaining`, which the read leaves as stored."""

import pytest

from apps.quota import selectors
from apps.quota.models import QuotaGrant

from .test_expired_part import held_six_of_an_expired_ten_and_five_lasting
from .test_usage_page import table

pytestmark = pytest.mark.django_db


def test_listed_grants_keep_their_stored_remaining_beside_what_is_left(user, funded):
    account = held_six_of_an_expired_ten_and_five_lasting(user, funded)
    grants = selectors.quota_grants_for(account=account)
    assert [(g.amount, g.remaining, g.left, g.lapsed) for g in grants] == [
        (10, 10, 6, True),
        (5, 5, 5, False),
    ]
    stored = dict(QuotaGrant.objects.filter(account=account).values_list("pk", "remaining"))
    assert {g.pk: g.remaining for g in grants} == stored
    # Saving a listed grant writes back what is stored, not what the page shows.
    grants[0].save(update_fields=["remaining"])
    assert QuotaGrant.objects.get(pk=grants[0].pk).remaining == 10


def test_the_usage_page_shows_what_is_left_of_each_grant(client, user, funded):
    held_six_of_an_expired_ten_and_five_lasting(user, funded)
    client.force_login(user)
    rows = table(client.get("/usage/").content.decode(), "usage-grants")
    shown = [(granted, left, expires.split(" ")[0]) for _s, (granted, _), (left, _), (expires, _)
             in rows]  # fmt: skip
    assert shown == [("10", "6 held by turns in progress", "Expired"), ("5", "5", "Never")]
