"""What a signed-in user is shown is never kept by a shared cache nor served again from the
browser's cache (the back button, or the next person at a shared computer after sign-out)."""

import pytest
from django.test import Client

from apps.campaigns.models import CampaignMembership
from apps.turns.media import ImageBlock, artifact_store
from tests.rooms.factories import make_campaign

NEVER_STORED = "max-age=0, no-cache, no-store, must-revalidate, private"


@pytest.fixture
def table(make_user):
    owner, player = make_user(), make_user()
    campaign, _ = make_campaign(owner, (player, CampaignMembership.Role.PLAYER))
    client = Client()
    client.force_login(player)
    return campaign, client


@pytest.mark.django_db
def test_a_signed_in_page_and_the_api_are_never_stored(table):
    campaign, client = table
    page = client.get(f"/campaigns/{campaign.id}/room/")
    api = client.get(f"/api/campaigns/{campaign.id}/room/jobs")
    assert (page.status_code, api.status_code) == (200, 200)
    assert (page["Cache-Control"], api["Cache-Control"]) == (NEVER_STORED, NEVER_STORED)


@pytest.mark.django_db
def test_an_error_answer_to_a_signed_in_user_is_never_stored_either(table):
    _, client = table
    response = client.get("/api/campaigns/00000000-0000-0000-0000-000000000000/room/jobs")
    assert (response.status_code, response["Cache-Control"]) == (404, NEVER_STORED)


@pytest.mark.django_db
def test_a_page_for_anyone_keeps_its_own_caching():
    response = Client().get("/legal/terms")
    assert (response.status_code, response.has_header("Cache-Control")) == (200, False)


@pytest.mark.django_db
def test_a_signed_in_answer_that_sets_its_own_caching_keeps_it(table):
    # A stored image never changes under its id: the browser may keep it, privately.
    campaign, client = table
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
    artifact = artifact_store(
        campaign_id=campaign.id, block=ImageBlock(0, "image/png", png), audience="public"
    )
    response = client.get(f"/campaigns/{campaign.id}/room/artifacts/{artifact.id}")
    assert (response.status_code, response["Cache-Control"]) == (200, "private, max-age=3600")
