"""The reservation list's owner filter names owner types in words ("Room turn"), as charges'
descriptions do, not by their code ("room_turn")."""

import pytest

from apps.quota import services

pytestmark = pytest.mark.django_db


def test_the_owner_filter_names_owner_types_in_words(staff_client, make_user, funded):
    client, _ = staff_client
    user = make_user("player@example.test")
    funded(user, 10)
    services.quota_reserve(user=user, amount=2, key="turn-1", owner_type="room_turn", owner_id="1")
    services.quota_reserve(user=user, amount=2, key="other", owner_type="", owner_id="")
    response = client.get("/admin/quota/reservation/")
    [owner_filter] = [f for f in response.context["cl"].filter_specs if f.title == "owner type"]
    choices = [
        str(choice["display"])
        for choice in owner_filter.choices(response.context["cl"])
    ]  # fmt: skip
    assert choices == ["All", "No owner", "Room turn"]
    filtered = client.get("/admin/quota/reservation/?owner_type=room_turn")
    assert [r.key for r in filtered.context["cl"].result_list] == ["turn-1"]
    unowned = client.get("/admin/quota/reservation/?owner_type=")
    assert [r.key for r in unowned.context["cl"].result_list] == ["other"]
