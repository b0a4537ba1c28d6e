"""The archived notice on the settings page: the owner is pointed at the restore card."""

from __future__ import annotations

import re

import pytest

from apps.campaigns.services.campaigns import campaign_archive
from apps.campaigns.services.membership import membership_change_role
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db

READ_ONLY = "This campaign is archived: its settings can be read, not changed."
OWNER_NOTICE = (
    'This campaign is archived: <a href="#h-restore">restore it below</a> to change its settings.'
)


def test_the_owner_of_an_archived_campaign_is_pointed_at_the_restore_card(
    domains, client, campaign, gm, player, make_user
):
    other_gm = make_user("gwen@example.test", display_name="Gwen GM")
    join(campaign, gm, other_gm)
    membership_change_role(campaign=campaign, actor=gm, user=other_gm, role="gm")
    campaign_archive(campaign=campaign, actor=gm)

    client.force_login(gm)
    owner_page = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert owner_page.count(OWNER_NOTICE) == 1
    assert READ_ONLY not in owner_page
    assert 'id="h-restore"' in owner_page

    client.force_login(other_gm)
    gm_page = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert gm_page.count(READ_ONLY) == 1
    assert OWNER_NOTICE not in gm_page


def test_an_archived_campaign_without_bindings_does_not_say_players_will_bind_themselves(
    domains, client, campaign, gm
):
    client.force_login(gm)
    active = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    campaign_archive(campaign=campaign, actor=gm)
    archived = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    empty = r'aria-labelledby="h-bindings">.*?<li class="muted">(.*?)</li>'
    assert re.findall(empty, active, re.S) == [
        # Saying where characters come from: with none, there is no binding form to use.
        "No bindings yet: players create characters from the campaign page and are bound to them."
    ]
    # An archived campaign gets no new characters: nobody will.
    assert re.findall(empty, archived, re.S) == ["No characters were bound."]
