"""The campaign admin's lists name a campaign's, a join request's and an actor binding's status
with a capital ("Active", "Pending"), in their column and in their filter, as the quota lists
do: the labels are lowercase to read mid-sentence."""

import re

import pytest
from django.test import Client

from apps.campaigns.models import ActorBinding, Campaign, CampaignMembership, JoinRequest

pytestmark = pytest.mark.django_db

_CELL = re.compile(r'<td class="field-(\w+)[^"]*">(.*?)</td>', re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")


def _column(html, name):
    return [_TAGS.sub("", text).strip() for field, text in _CELL.findall(html) if field == name]


def _filter_choices(html):
    filter_html = html.split('id="changelist-filter"', 1)[1]
    return [_TAGS.sub("", text).strip() for text in re.findall(r"<li\b.*?</li>", filter_html, re.S)]


def test_the_campaign_admin_lists_name_statuses_with_a_capital(make_user):
    staff = make_user("ops@example.test", is_staff=True, is_superuser=True)
    owner = make_user("gm@example.test")
    campaign = Campaign.objects.create(name="Ashfall", system_id="dnd5e", owner=owner)
    CampaignMembership.objects.create(campaign=campaign, user=owner, role="owner")
    JoinRequest.objects.create(campaign=campaign, user=make_user(), role="player")
    ActorBinding.objects.create(
        campaign=campaign, user=owner, character_id="pc-1", character_name="Ash"
    )
    client = Client()
    client.force_login(staff)

    page = client.get("/admin/campaigns/campaign/").content.decode()
    assert _column(page, "campaign_status") == ["Active"]
    assert "All Active Archived" in " ".join(_filter_choices(page))
    filtered = client.get("/admin/campaigns/campaign/?status=active").content.decode()
    assert _column(filtered, "campaign_status") == ["Active"]

    page = client.get("/admin/campaigns/joinrequest/").content.decode()
    assert _column(page, "request_status") == ["Pending"]
    assert _filter_choices(page) == ["All", "Pending", "Approved", "Rejected"]
    filtered = client.get("/admin/campaigns/joinrequest/?status=rejected").content.decode()
    assert _column(filtered, "request_status") == []

    page = client.get("/admin/campaigns/actorbinding/").content.decode()
    assert _column(page, "binding_status") == ["Active"]
    assert _filter_choices(page) == ["All", "Active", "Removed"]
