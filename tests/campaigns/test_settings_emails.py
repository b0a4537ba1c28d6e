"""The settings page names members and requesters by their label, never by email address:
invites are links, so nobody in a campaign typed another's address, and it is not theirs to
read (the owner included)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from apps.campaigns.services.invites import invite_accept, invite_create
from apps.campaigns.services.membership import membership_change_role
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db


def test_the_settings_page_shows_no_members_or_requesters_email_even_to_the_owner(
    domains, client, campaign, gm, player, make_user
):
    co_gm = make_user("co-gm@example.test", display_name="Cora Co-GM")
    join(campaign, gm, co_gm)
    membership_change_role(campaign=campaign, actor=gm, user=co_gm, role="gm")
    join(campaign, gm, player)
    nameless = make_user("nameless@example.test")
    join(campaign, gm, nameless)
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    invite_accept(token=token, user=make_user("asker@example.test", display_name="Ash Asker"))
    emails = [
        "co-gm@example.test", "player@example.test", "nameless@example.test",
        "asker@example.test",
    ]  # fmt: skip
    names = ["Cora Co-GM", "Pat Player", nameless.label, "Ash Asker"]

    client.force_login(gm)
    as_owner = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert [email in as_owner for email in emails] == [False] * 4
    assert [name in as_owner for name in names] == [True] * 4

    client.force_login(co_gm)
    as_gm = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert [email in as_gm for email in [*emails, "gm@example.test"]] == [False] * 5
    assert [name in as_gm for name in ["Gail GM", *names]] == [True] * 5
