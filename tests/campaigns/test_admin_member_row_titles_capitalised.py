"""The campaign page's member rows are titled with their status as the Role and Status columns
beside them read it, with a capital: "Membership 52b986eb (Player, Removed)", where the title
said "(Player, removed)" next to "Removed"."""

import re

import pytest
from django.test import Client

from apps.campaigns.models import Campaign, CampaignMembership

pytestmark = pytest.mark.django_db


def test_a_member_rows_title_names_its_status_as_its_status_column_does(make_user):
    staff = Client()
    staff.force_login(make_user("ops@example.test", is_staff=True, is_superuser=True))
    owner = make_user("gm@example.test")
    campaign = Campaign.objects.create(name="Ashfall", system_id="dnd5e", owner=owner)
    kept = CampaignMembership.objects.create(campaign=campaign, user=owner, role="owner")
    left = CampaignMembership.objects.create(
        campaign=campaign, user=make_user("left@example.test"), role="player", status="removed"
    )

    html = staff.get(f"/admin/campaigns/campaign/{campaign.pk}/change/").content.decode()

    members = html.split('id="memberships-group"', 1)[1].split("</fieldset>", 1)[0]
    titles = [
        " ".join(title.split())
        for title in re.findall(r'<td class="original">\s*<p>(.*?)</p>', members, re.S)
    ]
    assert titles == [
        f"Membership {str(kept.pk)[:8]} (Owner, Active)",
        f"Membership {str(left.pk)[:8]} (Player, Removed)",
    ]
