"""The campaign invite's admin list and page label its uses in words staff read ("Times used"),
not the field's name ("Used count"), and still never show the token's hash."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from apps.campaigns.models import Campaign, CampaignInvite

pytestmark = pytest.mark.django_db


def test_the_invite_list_and_page_say_times_used(make_user):
    staff = make_user("ops@example.test", is_staff=True, is_superuser=True)
    owner = make_user("gm@example.test")
    campaign = Campaign.objects.create(name="Ashfall", system_id="dnd5e", owner=owner)
    invite = CampaignInvite.objects.create(
        campaign=campaign, created_by=owner, token_hash="f" * 64, mode="request",
        expires_at=timezone.now() + timedelta(days=1), max_uses=3, used_count=2,
    )  # fmt: skip
    client = Client()
    client.force_login(staff)
    listing = client.get("/admin/campaigns/campaigninvite/").content.decode()
    assert ">Times used</a>" in listing
    assert '<td class="field-times_used">2</td>' in listing
    assert "Used count" not in listing
    response = client.get(f"/admin/campaigns/campaigninvite/{invite.pk}/change/")
    labels = [
        str(field.field["label"])
        for fieldset in response.context["adminform"]
        for line in fieldset
        for field in line
    ]
    assert labels == [
        "campaign", "created by", "mode", "role", "expires at", "maximum uses", "times used",
        "revoked at",
    ]  # fmt: skip
    page = response.content.decode()
    assert "Used count" not in page and "f" * 64 not in page
