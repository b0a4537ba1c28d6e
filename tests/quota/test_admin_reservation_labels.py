"""The reservation's admin page labels its fields in words staff read: how long a hold lasts
after each heartbeat and what the turn was charged, not the field names ("Ttl seconds",
"Settled amount")."""

import pytest

from apps.quota import services

pytestmark = pytest.mark.django_db


def test_the_reservation_page_labels_its_fields_in_words(staff_client, make_user, funded):
    client, _ = staff_client
    user = make_user("player@example.test")
    funded(user, 10)
    reservation = services.quota_reserve(
        user=user, amount=5, key="turn-1", owner_type="room_turn", owner_id="job-1"
    )
    services.quota_settle(reservation=reservation, actual=3)
    response = client.get(f"/admin/quota/reservation/{reservation.pk}/change/")
    labels = {
        field.field["name"]: str(field.field["label"])
        for fieldset in response.context["adminform"]
        for line in fieldset
        for field in line
        if field.field["name"] in {
            "settled_amount", "ttl_seconds", "owner_id", "heartbeat_at", "expires_at"
        }
    }  # fmt: skip
    assert labels == {
        "settled_amount": "credits charged",
        "owner_id": "owner ID",
        "ttl_seconds": "seconds held after each heartbeat",
        "heartbeat_at": "last heartbeat",
        "expires_at": "held until",
    }
    page = response.content.decode()
    assert "Ttl seconds" not in page and "Settled amount" not in page
