"""Invariants the database holds, whatever code writes the rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.campaigns.models import Campaign, CampaignInvite, CampaignMembership, JoinRequest

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user):
    owner = make_user("gm@example.test")
    campaign = Campaign.objects.create(name="Ashfall", system_id="dnd5e", owner=owner)
    CampaignMembership.objects.create(campaign=campaign, user=owner, role="owner")
    return campaign


def test_a_campaign_has_one_owner_membership(table, make_user):
    with pytest.raises(IntegrityError), transaction.atomic():
        CampaignMembership.objects.create(campaign=table, user=make_user(), role="owner")
    # Any number of GMs, and the owner of one campaign may own another.
    for _ in range(2):
        CampaignMembership.objects.create(campaign=table, user=make_user(), role="gm")
    other = Campaign.objects.create(name="Bleakmoor", system_id="dnd5e", owner=table.owner)
    CampaignMembership.objects.create(campaign=other, user=table.owner, role="owner")
    assert sorted(table.memberships.values_list("role", flat=True)) == ["gm", "gm", "owner"]


@pytest.mark.parametrize("role", ["owner", "gm"])
def test_an_invite_grants_only_the_player_or_observer_role(table, role):
    with pytest.raises(IntegrityError), transaction.atomic():
        CampaignInvite.objects.create(
            campaign=table, created_by=table.owner, token_hash="0" * 64, mode="request",
            role=role, expires_at=timezone.now() + timedelta(hours=1),
        )  # fmt: skip
    assert not CampaignInvite.objects.exists()


def test_a_join_request_never_asks_for_the_owner_role(table, make_user):
    with pytest.raises(IntegrityError), transaction.atomic():
        JoinRequest.objects.create(campaign=table, user=make_user(), role="owner")
    assert not JoinRequest.objects.exists()
