"""A role change whose member is removed while the domain server grants the new role."""

from __future__ import annotations

import pytest

from apps.campaigns.models import Campaign, CampaignMembership
from apps.core.errors import Conflict
from apps.domains.client import principal_for
from tests.campaigns.conftest import domain_members, join

pytestmark = pytest.mark.django_db


def test_a_member_removed_during_a_role_change_stays_removed_on_the_domain_too(
    domains, campaign, gm, player, make_user, monkeypatch
):
    from apps.campaigns.services import membership as service

    other_gm = make_user("gwen@example.test", display_name="Gwen GM")
    join(campaign, gm, other_gm)
    service.membership_change_role(campaign=campaign, actor=gm, user=other_gm, role="gm")
    join(campaign, gm, player)
    campaign.refresh_from_db()
    real_write = service.authority_write
    raced = []

    def write(**kwargs):
        if kwargs["tool"] == "member_grant" and not raced:
            raced.append(True)
            # The other GM's removal lands on the domain just before the owner's grant.
            service.membership_remove(
                campaign=Campaign.objects.get(pk=campaign.pk), actor=other_gm, user=player
            )
        return real_write(**kwargs)

    monkeypatch.setattr(service, "authority_write", write)
    with pytest.raises(Conflict) as refused:
        service.membership_change_role(campaign=campaign, actor=gm, user=player, role="observer")
    assert (refused.value.code, refused.value.message) == (
        "member_left",
        "Pat Player left the campaign or was removed meanwhile.",
    )
    membership = CampaignMembership.objects.get(campaign=campaign, user=player)
    assert (membership.role, membership.status) == ("player", "removed")
    assert principal_for(player) not in domain_members(campaign, gm)
