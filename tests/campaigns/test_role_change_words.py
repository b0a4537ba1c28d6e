"""What the settings page says after the owner sets a member's role."""

from __future__ import annotations

import pytest

from apps.campaigns.models import CampaignMembership
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db


def _role_set(client, campaign, user, role) -> list[str]:
    url = f"/campaigns/{campaign.id}/settings/members/{user.id}/role"
    response = client.post(url, {"role": role}, follow=True)
    assert response.redirect_chain == [(f"/campaigns/{campaign.id}/settings", 302)]
    return [str(m) for m in response.context["messages"]]


def test_a_role_change_names_the_member_and_the_new_role(domains, client, campaign, gm, player):
    join(campaign, gm, player)
    client.force_login(gm)
    assert _role_set(client, campaign, player, "gm") == ["Pat Player is now a GM."]
    assert _role_set(client, campaign, player, "observer") == ["Pat Player is now an observer."]
    assert _role_set(client, campaign, player, "player") == ["Pat Player is now a player."]
    assert CampaignMembership.objects.get(campaign=campaign, user=player).role == "player"


def test_the_role_a_member_already_has_is_said_to_be_theirs_already(
    domains, client, campaign, gm, player
):
    join(campaign, gm, player)
    client.force_login(gm)
    assert _role_set(client, campaign, player, "player") == ["Pat Player is already a player."]
