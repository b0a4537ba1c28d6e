"""Settings and invite pages: the new link, archived campaigns' invites, dead links' reasons."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db

INVITE_FORM = {"mode": "request", "role": "player", "expires_in_hours": 24, "max_uses": 2}


def test_a_new_invite_link_is_still_shown_after_opening_another_campaigns_settings(
    domains, client, make_campaign, gm
):
    first = make_campaign(gm, name="Tomb")
    second = make_campaign(gm, name="Keep")
    client.force_login(gm)
    client.post(f"/campaigns/{first.id}/settings/invites", INVITE_FORM)
    other = client.get(f"/campaigns/{second.id}/settings").content.decode()
    own = client.get(f"/campaigns/{first.id}/settings").content.decode()
    assert 'id="new-invite-url"' not in other
    assert len(re.findall(r'id="new-invite-url">http://testserver/invites/[\w-]+<', own)) == 1
    again = client.get(f"/campaigns/{first.id}/settings").content.decode()
    assert 'id="new-invite-url"' not in again
