"""The room page names the members who run the game (owner and GMs), whose entries the timeline
marks "GM": not players, observers or members who have left."""

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

    assert response.context["room_config"]["gameMasters"] == [str(owner.id), str(gm.id)]


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
