import pytest
from django.test import Client
from django.utils import timezone

from apps.campaigns.models import Campaign, CampaignMembership, JoinRequest

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


def _campaign_with_members(make_user, count):
    owner = make_user()
    campaign = Campaign.objects.create(name="Ashfall", system_id="dnd5e", owner=owner)
    CampaignMembership.objects.create(campaign=campaign, user=owner, role="owner")
    for _ in range(count):
        CampaignMembership.objects.create(campaign=campaign, user=make_user(), role="player")
        JoinRequest.objects.create(
            campaign=campaign, user=make_user(), role="player", status="rejected",
            decided_by=make_user(), decided_at=timezone.now(),
        )  # fmt: skip
    return campaign


@pytest.mark.parametrize("count", [1, 4])
def test_admin_campaign_page_and_join_request_list_read_users_in_fixed_queries(
    make_user, django_assert_num_queries, count
):
    staff = make_user("ops@example.test", is_staff=True, is_superuser=True)
    campaign = _campaign_with_members(make_user, count)
    client = Client()
    client.force_login(staff)
    # As many queries for one member and decided request as for four: none per row.
    with django_assert_num_queries(9):
        page = client.get(f"/admin/campaigns/campaign/{campaign.id}/change/")
    assert page.status_code == 200
    with django_assert_num_queries(5):
        listing = client.get("/admin/campaigns/joinrequest/")
    assert listing.status_code == 200
    assert listing.context["cl"].result_count == count
