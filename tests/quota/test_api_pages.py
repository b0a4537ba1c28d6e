from datetime import UTC

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.quota import services
from apps.quota.models import LedgerEntry
from apps.quota.selectors import QuotaCredits

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(api_client, user):
    api_client.force_login(user)
    return api_client


def test_balance_api_requires_sign_in(api_client):
    response = api_client.get("/api/usage/balance")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def _ts(entry):
    return entry.created_at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def test_ledger_api_newest_first_with_allocations_and_keyset_pages(signed_in, user, funded):
    account = funded(user, 6, 4)
    grant6, grant4 = account.grants.order_by("created_at")
    reservation = services.quota_reserve(user=user, amount=8, key="turn-1", owner_type="room_turn")
    services.quota_settle(reservation=reservation, actual=7)
    charge, g4, g6 = LedgerEntry.objects.filter(account=account).order_by("-id")
    with CaptureQueriesContext(connection) as queries:
        response = signed_in.get("/api/usage/ledger?limit=2")
    # Account, entries (with reservations joined), allocations: no per-row queries.
    quota_sql = [q["sql"] for q in queries.captured_queries if '"quota_' in q["sql"]]
    assert len(quota_sql) == 3, quota_sql
    assert response.status_code == 200
    assert response.json() == {
        "results": [
            {
                "id": charge.id,
                "kind": "charge",
                "amount": 7,
                "credits_after": 3,
                "balance_after": 3,
                "description": "Room turn",
                "use": {"text": "Room turn", "url": ""},  # its job is gone
                "reservation_key": "turn-1",
                "allocations": [
                    {"grant_id": str(grant6.pk), "amount": 6},
                    {"grant_id": str(grant4.pk), "amount": 1},
                ],
                "created_at": _ts(charge),
            },
            {
                "id": g4.id,
                "kind": "grant",
                "amount": 4,
                "credits_after": 10,
                "balance_after": 10,
                "description": "System",
                "use": None,
                "reservation_key": None,
                "allocations": [],
                "created_at": _ts(g4),
            },
        ],
        "next": f"/api/usage/ledger?before={g4.id}&limit=2",
    }
    older = signed_in.get(f"/api/usage/ledger?before={g4.id}&limit=2").json()
    assert [e["id"] for e in older["results"]] == [g6.id]
    assert older["next"] is None


def test_ledger_api_counts_held_credits_and_says_what_a_charge_was_for(signed_in, user, funded):
    account = funded(user, 20)
    services.quota_reserve(user=user, amount=5, key="turn-held", owner_type="room_turn")
    spent = services.quota_reserve(user=user, amount=5, key="turn-spent", owner_type="room_turn")
    services.quota_settle(reservation=spent, actual=3)
    results = signed_in.get("/api/usage/ledger").json()["results"]
    # The charge leaves 17 credits, 5 of them held: available (balance_after) is 12.
    assert [(e["kind"], e["credits_after"], e["balance_after"]) for e in results] == [
        ("charge", 17, 12),
        ("grant", 20, 20),
    ]
    assert account.reservations.get(key="turn-held").status == "active"
    assert results[0]["use"] == {"text": "Room turn", "url": ""}  # no job: a plain turn


def test_ledger_api_shows_only_own_entries(signed_in, user, funded, make_user):
    other = make_user()
    funded(other, 9)
    funded(user, 1)
    ids = [e["id"] for e in signed_in.get("/api/usage/ledger").json()["results"]]
    assert ids == list(LedgerEntry.objects.filter(account__user=user).values_list("id", flat=True))
    assert len(ids) == 1


def test_ledger_api_rejects_bad_paging(signed_in):
    response = signed_in.get("/api/usage/ledger?limit=500")
    assert response.status_code == 400
    assert response.json()["error"]["details"] == {
        "fields": {"limit": ["Ensure this value is less than or equal to 100."]}
    }


def test_usage_page_renders_balance_reservations_grants_and_ledger(client, user, funded):
    account = funded(user, 20)
    services.quota_reserve(user=user, amount=5, key="turn-live", owner_type="room_turn")
    services.quota_settle(
        reservation=services.quota_reserve(user=user, amount=3, key="turn-done"), actual=2
    )
    client.force_login(user)
    response = client.get("/usage/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<dd id="usage-balance">13</dd>' in html
    assert '<dd id="usage-reserved">5</dd>' in html
    assert "turn-live" in html and "turn-done" not in html  # only active reservations listed
    assert html.count('class="badge badge--charge"') == 1
    assert html.count('class="badge badge--grant"') == 1
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "quota/usage.css" in html
    assert response.context["account"] == QuotaCredits(balance=13, reserved=5, plan=account.plan)


def test_usage_page_requires_sign_in(client):
    response = client.get("/usage/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/usage/"
