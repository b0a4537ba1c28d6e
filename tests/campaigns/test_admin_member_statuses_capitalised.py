"""The campaign page's members name their status with a capital ("Removed"), as the campaign,
join request and binding lists do: the labels are lowercase to read mid-sentence."""

import re

import pytest
from django.test import Client

from apps.campaigns.models import Campaign, CampaignMembership

pytestmark = pytest.mark.django_db

_TAGS = re.compile(r"<[^>]+>")


@pytest.fixture
def staff(make_user):
    client = Client()
    client.force_login(make_user("ops@example.test", is_staff=True, is_superuser=True))
    return client


def test_the_campaign_page_names_member_statuses_with_a_capital(staff, make_user):
    owner = make_user("gm@example.test")
    campaign = Campaign.objects.create(name="Ashfall", system_id="dnd5e", owner=owner)
    CampaignMembership.objects.create(campaign=campaign, user=owner, role="owner")
    CampaignMembership.objects.create(
        campaign=campaign, user=make_user("left@example.test"), role="player", status="removed"
    )
    html = staff.get(f"/admin/campaigns/campaign/{campaign.pk}/change/").content.decode()
    members = html.split('id="memberships-group"', 1)[1].split("</fieldset>", 1)[0]
    headings = [
        _TAGS.sub("", h).strip() for h in re.findall(r"<th\b[^>]*>(.*?)</th>", members, re.S)
    ]
    assert [heading for heading in headings if heading] == ["User", "Role", "Status", "Created at"]
    statuses = [
        _TAGS.sub("", cell).strip()
        for cell in re.findall(r'<td class="field-membership_status">(.*?)</td>', members, re.S)
    ]
    assert statuses == ["Active", "Removed"]
