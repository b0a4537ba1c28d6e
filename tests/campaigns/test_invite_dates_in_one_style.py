"""The settings page's invites say until when they work, as the room's timeline writes times
("Dec 7, 2099, 5:26 AM"), with the zone; the revoke button names its invite by that same moment,
as the same <time> element, so a screen reader hears what the row shows in the reader's zone."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from apps.campaigns.models import CampaignInvite
from apps.campaigns.services.invites import invite_create

pytestmark = pytest.mark.django_db


def test_a_live_invite_and_its_revoke_button_say_until_when_with_the_zone(
    domains, client, campaign, gm
):
    invite, _token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=5), max_uses=1
    )
    CampaignInvite.objects.filter(pk=invite.pk).update(
        expires_at=datetime(2099, 12, 14, 5, 26, tzinfo=UTC)
    )
    client.force_login(gm)
    page = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    row = re.findall(r"<tr>(<td>.*?)</tr>", page, re.S)[0]
    status = re.sub(r"<[^>]+>", "", re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[2])
    assert status == "until Dec 14, 2099, 5:26 AM UTC"
    button = re.findall(r"<button[^>]*>(.*?)</button>", row, re.S)
    assert button == [
        '<span aria-hidden="true">Revoke</span><span class="sr-only">Revoke the player invite that '
        'works until <time datetime="2099-12-14T05:26:00+00:00" data-local="datetime">'
        '<span class="nowrap">Dec 14, 2099,</span> <span class="nowrap">5:26 AM UTC</span>'
        "</time></span>"
    ]
