"""The settings page's invites say until when they work, and the revoke button when the invite
was made, as the room's timeline writes times ("Dec 7, 2099, 5:26 AM"), with the zone."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from apps.campaigns.models import CampaignInvite
from apps.campaigns.services.invites import invite_create

pytestmark = pytest.mark.django_db


def test_a_live_invite_says_until_when_and_when_it_was_made_with_the_zone(
    domains, client, campaign, gm
):
    invite, _token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=5), max_uses=1
    )
    CampaignInvite.objects.filter(pk=invite.pk).update(
        created_at=datetime(2026, 12, 7, 17, 47, tzinfo=UTC),
        expires_at=datetime(2099, 12, 14, 5, 26, tzinfo=UTC),
    )
    client.force_login(gm)
    page = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    row = re.findall(r"<tr>(<td>.*?)</tr>", page, re.S)[0]
    status = re.sub(r"<[^>]+>", "", re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[2])
    assert status == "until Dec 14, 2099, 5:26 AM UTC"
    assert re.findall(r'aria-label="(Revoke the invite made [^"]*)"', row) == [
        "Revoke the invite made Dec 7, 2026, 5:47 PM UTC"
    ]
