"""The room page names who runs the game (the owner and GM roles, and the members holding one),
whose entries the timeline marks "GM": not players, observers or members who have left."""

import pytest

from apps.campaigns.models import CampaignMembership
from tests.rooms.factories import make_campaign

Role = CampaignMembership.Role


@pytest.mark.django_db
def test_the_room_page_lists_the_owner_and_gms_as_game_masters(make_user, client):
    owner, gm, player, observer, former = (make_user() for _ in range(5))
    campaign, _ms = make_campaign(
        owner, (gm, Role.GM), (player, Role.PLAYER), (observer, Role.OBSERVER), (former, Role.GM)
    )
    CampaignMembership.objects.filter(campaign=campaign, user=former).update(
        status=CampaignMembership.Status.LEFT
    )

    client.force_login(player)
    response = client.get(f"/campaigns/{campaign.id}/room/")

    config = response.context["room_config"]
    # The members under the key a room.js cached from before the roles came reads as a list.
    assert config["gameMasters"] == [str(owner.id), str(gm.id)]
    assert config["gameMasterRoles"] == ["gm", "owner"]


@pytest.mark.django_db
def test_the_game_masters_are_the_members_in_a_managing_role_in_the_order_given(make_user):
    from apps.rooms.selectors import room_game_masters

    owner, gm, player, observer, late_gm = (make_user() for _ in range(5))
    _campaign, ms = make_campaign(
        owner, (gm, Role.GM), (player, Role.PLAYER), (observer, Role.OBSERVER), (late_gm, Role.GM)
    )

    assert room_game_masters(memberships=reversed(ms)) == {
        "roles": ["gm", "owner"],
        "members": [str(late_gm.id), str(gm.id), str(owner.id)],
    }
    assert room_game_masters(memberships=()) == {"roles": ["gm", "owner"], "members": []}


@pytest.mark.django_db
@pytest.mark.parametrize("role", [Role.OWNER, Role.GM, Role.PLAYER])
def test_a_message_carries_the_role_it_was_said_in(make_user, role):
    from apps.rooms.selectors import serialize_entry
    from apps.rooms.services import room_message_post

    owner, member = make_user(), make_user()
    campaign, ms = make_campaign(owner, (member, Role.GM), (make_user(), Role.PLAYER))
    sender = next(m for m in ms if m.role == role)
    message, _created = room_message_post(
        membership=sender, body="Hello.", mode="chat", client_message_id="hello"
    )
    assert serialize_entry(message)["data"] == {"sender_role": role.value}
