"""A campaign's, a join request's and an actor binding's admin pages name the status with a
capital ("Active", "Pending"), in its place among the fields, as their lists do."""

import pytest
from django.test import Client

from apps.campaigns.models import ActorBinding, Campaign, CampaignMembership, JoinRequest

pytestmark = pytest.mark.django_db


def _fields(response):
    return [
        (field.field["name"], field.contents())
        for fieldset in response.context["adminform"]
        for line in fieldset
        for field in line
    ]


def test_the_campaign_admin_pages_name_statuses_with_a_capital(make_user):
    staff = make_user("ops@example.test", is_staff=True, is_superuser=True)
    owner = make_user("gm@example.test")
    campaign = Campaign.objects.create(name="Ashfall", system_id="dnd5e", owner=owner)
    CampaignMembership.objects.create(campaign=campaign, user=owner, role="owner")
    request = JoinRequest.objects.create(campaign=campaign, user=make_user(), role="player")
    binding = ActorBinding.objects.create(
        campaign=campaign, user=owner, character_id="pc-1", character_name="Ash"
    )
    client = Client()
    client.force_login(staff)
    for url, column, words, before in [
        (f"/admin/campaigns/campaign/{campaign.pk}/change/", "campaign_status", "Active", "owner"),
        (f"/admin/campaigns/joinrequest/{request.pk}/change/", "request_status", "Pending", "role"),
        (f"/admin/campaigns/actorbinding/{binding.pk}/change/", "binding_status", "Active",
         "control_on_return"),
    ]:  # fmt: skip
        fields = _fields(client.get(url))
        names = [name for name, _ in fields]
        assert "status" not in names
        assert names[names.index(column) - 1] == before
        assert dict(fields)[column] == words
