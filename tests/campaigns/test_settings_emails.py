"""Members' and requesters' email addresses on the settings page are the owner's to see."""

from __future__ import annotations

from datetime import timedelta

import pytest

from apps.campaigns.services.invites import invite_accept, invite_create
from apps.campaigns.services.membership import membership_change_role
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db


def test_only_the_owner_sees_members_and_requesters_emails_on_the_settings_page(
    domains, client, campaign, gm, player, make_user
):
    co_gm = make_user("co-gm@example.test", display_name="Cora Co-GM")
    join(campaign, gm, co_gm)
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="gm")
    join(campaign, gm, player)
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    invite_accept(token=token, user=make_user("asker@example.test", display_name="Ash Asker"))
    others = ["gm@example.test", "player@example.test", "asker@example.test"]

    client.force_login(gm)
    as_owner = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert [email in as_owner for email in [*others, "co-gm@example.test"]] == [True] * 4

    client.force_login(co_gm)
    as_gm = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert [email in as_gm for email in others] == [False] * 3
    assert [name in as_gm for name in ("Gail GM", "Pat Player", "Ash Asker")] == [True] * 3
