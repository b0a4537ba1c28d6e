"""The "you played … here before" note (room and campaign page) offers binding again or a new
character: only to a member who could have either, not to an observer or in an archived
campaign."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.campaigns.models import ActorBinding, Campaign, CampaignMembership
from tests.rooms.factories import make_campaign

Role = CampaignMembership.Role
NOTE = "You played Ilsa here before"


def _returned(campaign, membership):
    """The member was bound to Ilsa before they last joined (they left and came back)."""
    ActorBinding.objects.create(
        campaign=campaign, user=membership.user, character_id="c-ilsa", character_name="Ilsa",
        status=ActorBinding.Status.REMOVED,
    )  # fmt: skip
    ActorBinding.objects.filter(campaign=campaign).update(
        updated_at=timezone.now() - timedelta(hours=1)
    )


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["room/", ""], ids=["room", "campaign page"])
def test_the_played_before_note_is_only_for_who_can_act_on_it(make_user, client, page):
    owner, player, observer = make_user(), make_user(), make_user()
    campaign, (_o, played, observed) = make_campaign(
        owner, (player, Role.PLAYER), (observer, Role.OBSERVER)
    )
    _returned(campaign, played)
    _returned(campaign, observed)
    url = f"/campaigns/{campaign.id}/{page}"

    client.force_login(player)
    assert client.get(url).content.decode().count(NOTE) == 1
    client.force_login(observer)
    assert NOTE not in client.get(url).content.decode()

    Campaign.objects.filter(pk=campaign.pk).update(status="archived")
    client.force_login(player)
    assert NOTE not in client.get(url).content.decode()
