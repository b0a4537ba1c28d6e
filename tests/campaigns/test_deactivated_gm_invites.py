"""An auto-join link admits on its creator's authority: not once their account is deactivated."""

from __future__ import annotations

from datetime import timedelta

import pytest

from apps.accounts.services import user_deactivate
from apps.campaigns.models import CampaignMembership
from apps.campaigns.services.invites import invite_accept, invite_create
from apps.campaigns.services.membership import membership_change_role
from tests.campaigns.conftest import domain_members, join

pytestmark = pytest.mark.django_db


def test_a_deactivated_gms_auto_join_link_files_a_request_instead_of_admitting(
    domains, client, campaign, gm, player, make_user
):
    co_gm = make_user("co-gm@example.test", display_name="Cora Co-GM")
    join(campaign, gm, co_gm)
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="gm")
    _invite, token = invite_create(
        campaign=campaign, actor=co_gm, mode="auto_join", expires_in=timedelta(hours=1),
        max_uses=5,
    )  # fmt: skip
    user_deactivate(user=co_gm, password="s3cret-passw0rd!")

    client.force_login(player)
    landing = client.get(f"/invites/{token}").content.decode()
    assert "<dt>Joining</dt><dd>A GM approves your request</dd>" in landing
    client.force_login(gm)
    settings_page = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert "Made as auto-join by someone no longer a GM: a GM approves each request." in (
        settings_page
    )

    outcome = invite_accept(token=token, user=player)
    assert (outcome.membership, outcome.join_request.status) == (None, "pending")
    assert not CampaignMembership.objects.filter(user=player).exists()
    assert f"user:{player.pk}" not in domain_members(campaign, gm)
