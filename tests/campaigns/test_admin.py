import pytest
from django.test import Client

from apps.campaigns.models import Campaign, CampaignMembership

pytestmark = pytest.mark.django_db


def test_staff_can_view_campaigns_but_not_change_them(make_user):
    staff = make_user("ops@example.test", is_staff=True, is_superuser=True)
    owner = make_user("gm@example.test")
    campaign = Campaign.objects.create(name="Ashfall", system_id="dnd5e", owner=owner)
    CampaignMembership.objects.create(campaign=campaign, user=owner, role="owner")
    client = Client()
    client.force_login(staff)
    listing = client.get("/admin/campaigns/campaign/")
    assert listing.status_code == 200
    assert b"Ashfall" in listing.content
    detail = client.get(f"/admin/campaigns/campaign/{campaign.id}/change/")
    assert detail.status_code == 200
    assert b"gm@example.test" in detail.content
    assert (
        client.post(f"/admin/campaigns/campaign/{campaign.id}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert Campaign.objects.filter(pk=campaign.pk).exists()
