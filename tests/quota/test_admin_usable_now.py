"""Staff see what is usable now wherever the admin names an account or lists its grants: the
stored figures still count an expired grant's unused credits until the expiry run forfeits
them, so they are shown only where labelled as stored."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.quota import services
from apps.quota.models import QuotaGrant, Reservation

pytestmark = pytest.mark.django_db

_CELL = re.compile(r'<t[dh] class="field-(\w+)[^"]*">(.*?)</t[dh]>', re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")


def listed(html: str) -> list[dict[str, str]]:
    """The changelist's rows as {column: text}, top to bottom."""
    body = html.split('id="result_list"', 1)[1].split("</table>", 1)[0]
    rows = body.split("<tbody>", 1)[1].split("</tr>")
    return [
        {name: _TAGS.sub("", text).strip() for name, text in _CELL.findall(row)}
        for row in rows
        if "field-" in row
    ]


def twelve_held_across_an_expired_ten_and_a_weekly_eight(user, funded):
    """Grants of 10 (expiring soon), 8 (in a week) and 5 (never); a turn holds 12, drawn from
    the 10 then 2 of the 8; then the 10's expiry passes, not yet written off. Stored balance 11,
    and 11 are usable: the 10 are all held, 6 of the 8 and the 5 are free."""
    now = timezone.now()
    account = funded(
        user, 10, 8, 5, expires=[now + timedelta(hours=1), now + timedelta(days=7), None]
    )
    services.quota_reserve(user=user, amount=12, key="k1")
    QuotaGrant.objects.filter(account=account, amount=10).update(
        expires_at=now - timedelta(minutes=1)
    )
    # The turn reserved before the expiry.
    Reservation.objects.filter(account=account).update(created_at=now - timedelta(minutes=2))
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (11, 12)
    return account


def five_of_an_expired_ten_unused(user, funded):
    """10 credits whose expiry passed (not yet written off) and 5 that never expire."""
    account = funded(user, 10, 5, expires=[timezone.now() + timedelta(days=1), None])
    QuotaGrant.objects.filter(account=account, amount=10).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    account.refresh_from_db()
    assert (account.balance, account.reserved) == (15, 0)
    return account


def test_an_account_is_named_by_its_user_not_by_a_stored_balance(make_user, funded):
    account = five_of_an_expired_ten_unused(make_user("player@example.test"), funded)
    assert str(account) == "player@example.test"


def test_the_grant_list_shows_each_grants_usable_and_held_credits_beside_the_stored_ones(
    staff_client, make_user, funded
):
    client, _ = staff_client
    twelve_held_across_an_expired_ten_and_a_weekly_eight(make_user("player@example.test"), funded)
    response = client.get("/admin/quota/quotagrant/")
    assert response.status_code == 200
    rows = listed(response.content.decode())
    assert [
        (r["account"], r["amount"], r["stored_left"], r["held_by_turns"], r["usable_now"])
        for r in rows
    ] == [
        ("player@example.test", "5", "5", "0", "5"),
        ("player@example.test", "8", "8", "2", "6"),
        ("player@example.test", "10", "10", "10", "0"),
    ]
    html = response.content.decode()
    for header in ("Left (stored)", "Held", "Usable now"):
        assert f">{header}</a>" in html
    # The account list's usable figure is the sum of its grants'.
    accounts = listed(client.get("/admin/quota/quotaaccount/").content.decode())
    assert [(r["balance"], r["usable_now"], r["reserved"]) for r in accounts] == [
        ("11", "11", "12")
    ]


def test_the_grant_list_names_the_account_without_its_stored_balance(
    staff_client, make_user, funded
):
    client, _ = staff_client
    five_of_an_expired_ten_unused(make_user("player@example.test"), funded)
    rows = listed(client.get("/admin/quota/quotagrant/").content.decode())
    assert [(r["account"], r["stored_left"], r["usable_now"]) for r in rows] == [
        ("player@example.test", "5", "5"),
        ("player@example.test", "10", "0"),
    ]


def test_the_grant_page_shows_its_usable_and_held_credits_beside_the_stored_ones(
    staff_client, make_user, funded
):
    client, _ = staff_client
    account = twelve_held_across_an_expired_ten_and_a_weekly_eight(
        make_user("player@example.test"), funded
    )
    grant = QuotaGrant.objects.get(account=account, amount=8)
    response = client.get(f"/admin/quota/quotagrant/{grant.pk}/change/")
    assert response.status_code == 200
    shown = [
        (str(field.field["label"]), str(field.contents()))
        for fieldset in response.context["adminform"]
        for line in fieldset
        for field in line
        if field.field["name"] in {"account", "remaining", "held", "usable_now"}
    ]
    assert [(label, re.sub(_TAGS, "", contents)) for label, contents in shown] == [
        ("account", "player@example.test"),
        ("stored remaining", "8"),
        ("Held by turns in progress", "2"),
        ("Usable now", "6"),
    ]


def test_listing_grants_writes_nothing_and_reads_them_in_one_query(staff_client, make_user, funded):
    client, _ = staff_client
    for n in range(3):
        twelve_held_across_an_expired_ten_and_a_weekly_eight(
            make_user(f"player{n}@example.test"), funded
        )
    before = list(QuotaGrant.objects.order_by("pk").values_list("pk", "remaining"))
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/admin/quota/quotagrant/").status_code == 200
    quota_sql = [q["sql"] for q in queries.captured_queries if '"quota_' in q["sql"]]
    # The two counts the changelist always makes, then the page with its accounts and users:
    # nothing per row.
    assert [sql.split(" FROM ")[0] for sql in quota_sql[:2]] == ['SELECT COUNT(*) AS "__count"'] * 2
    assert len(quota_sql) == 3
    assert list(QuotaGrant.objects.order_by("pk").values_list("pk", "remaining")) == before
