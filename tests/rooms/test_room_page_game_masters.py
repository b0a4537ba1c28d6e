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
