"""A reservation's admin page names what holds it in words ("Room turn"), as the list's owner
filter and a charge's ledger description do, not by its code ("room_turn")."""

import pytest

from apps.quota import services

pytestmark = pytest.mark.django_db


def _field(response, name):
    return [
        (str(field.field["label"]), field.contents())
        for fieldset in response.context["adminform"]
        for line in fieldset
        for field in line
        if field.field["name"] == name
    ]


def test_the_reservation_page_names_its_owner_type_in_words(staff_client, make_user, funded):
    client, _ = staff_client
    user = make_user("player@example.test")
    funded(user, 10)
    turn = services.quota_reserve(
        user=user, amount=5, key="turn-1", owner_type="room_turn", owner_id="job-1"
    )
    bare = services.quota_reserve(user=user, amount=1, key="bare-1")
    response = client.get(f"/admin/quota/reservation/{turn.pk}/change/")
    assert _field(response, "owner_in_words") == [("owner type", "Room turn")]
    assert "room_turn<" not in response.content.decode().replace("room_turn:", "")
    response = client.get(f"/admin/quota/reservation/{bare.pk}/change/")
    assert _field(response, "owner_in_words") == [("owner type", "No owner")]
