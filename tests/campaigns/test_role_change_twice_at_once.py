"""The same role change sent twice at once (the owner alone changes roles: two tabs, a double
submit). The key names no actor, and need not: only the owner makes role changes, so the domain
sees the same request from the same requester and replays it."""

from __future__ import annotations

import pytest

from apps.campaigns.models import Campaign, CampaignMembership
from apps.core.models import AuditEvent
from apps.domains.client import principal_for
from tests.campaigns.conftest import domain_members, join

pytestmark = pytest.mark.django_db


def test_the_same_role_change_sent_twice_at_once_succeeds_once(
    domains, campaign, gm, player, monkeypatch
):
    from apps.campaigns.services import membership as service

    join(campaign, gm, player)
    campaign.refresh_from_db()
    real_write = service.authority_write
    raced = []

    def write(**kwargs):
        if kwargs["tool"] == "member_grant" and not raced:
            raced.append(True)
            # The other tab's identical change lands first, from the same revision.
            service.membership_change_role(
                campaign=Campaign.objects.get(pk=campaign.pk), actor=gm, user=player, role="gm"
            )
        return real_write(**kwargs)

    monkeypatch.setattr(service, "authority_write", write)
    membership = service.membership_change_role(campaign=campaign, actor=gm, user=player, role="gm")

    assert membership.role == "gm"
    assert CampaignMembership.objects.get(campaign=campaign, user=player).role == "gm"
    assert domain_members(campaign, gm)[principal_for(player)] == "gm"
    # One change happened, and the record says so once.
    changes = AuditEvent.objects.filter(action="campaign.member.role")
    assert [e.details for e in changes] == [
        {"user_id": str(player.id), "from": "player", "to": "gm"}
    ]
