"""An archived campaign's room page tells its owner where to restore it, and nobody else."""

import pytest

from apps.campaigns.models import CampaignMembership
from tests.rooms.factories import make_campaign

Role = CampaignMembership.Role
HINT = "Restore it from the campaign settings"


@pytest.mark.django_db
def test_an_archived_rooms_owner_is_pointed_to_the_restore_in_the_settings(make_user, client):
    owner, gm, player = make_user(), make_user(), make_user()
    campaign, _ms = make_campaign(owner, (gm, Role.GM), (player, Role.PLAYER))
    type(campaign).objects.filter(pk=campaign.pk).update(status="archived")
    url = f"/campaigns/{campaign.id}/room/"

    client.force_login(owner)
    html = client.get(url).content.decode()
    assert (
        '<p class="card muted">This campaign is archived: its room can be read, not posted to. '
        f'<a href="/campaigns/{campaign.id}/settings#h-restore">{HINT}</a>.</p>'
    ) in html
    for other in (gm, player):
        client.force_login(other)
        html = client.get(url).content.decode()
        assert (
            '<p class="card muted">This campaign is archived: its room can be read, '
            "not posted to.</p>"
        ) in html
        assert HINT not in html
