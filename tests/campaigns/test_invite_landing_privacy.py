"""An invite link that can no longer be used tells its holder so, and nothing about the campaign."""

from __future__ import annotations

from datetime import timedelta

import pytest

from apps.campaigns.models import CampaignInvite
from apps.campaigns.services.campaigns import campaign_archive
from apps.campaigns.services.invites import invite_accept, invite_create, invite_revoke

pytestmark = pytest.mark.django_db

SECRETS = ("The Sunless Citadel", "Gail GM", "Player", "Observer", "D&amp;D")


def _shown(page: str) -> list[str]:
    return [text for text in SECRETS if text in page]


def _invite(campaign, gm, **kwargs):
    return invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1),
        max_uses=kwargs.pop("max_uses", 1), **kwargs,
    )  # fmt: skip


def test_a_revoked_invite_page_shows_no_campaign_details_to_a_stranger(
    domains, client, campaign, gm, make_user
):
    invite, token = _invite(campaign, gm)
    invite_revoke(invite=invite, actor=gm)
    signed_out = client.get(f"/invites/{token}")
    client.force_login(make_user("stranger@example.test", display_name="Sam Stranger"))
    signed_in = client.get(f"/invites/{token}")
    for response in (signed_out, signed_in):
        page = response.content.decode()
        assert response.status_code == 410
        assert _shown(page) == []
        assert '<p class="callout" role="alert">This invite was revoked.</p>' in page
        assert "Ask the campaign&#x27;s owner or a GM for a new invite link." in page
        assert "Request to join" not in page


def test_expired_used_up_and_archived_invite_pages_show_no_campaign_details(
    domains, client, campaign, gm, player, make_user
):
    expired, expired_token = _invite(campaign, gm)
    CampaignInvite.objects.filter(pk=expired.pk).update(expires_at=expired.created_at)
    _used, used_token = _invite(campaign, gm)
    invite_accept(token=used_token, user=player)
    _live, live_token = _invite(campaign, gm)
    client.force_login(make_user("stranger@example.test", display_name="Sam Stranger"))
    pages = {
        "expired": client.get(f"/invites/{expired_token}").content.decode(),
        "used up": client.get(f"/invites/{used_token}").content.decode(),
    }
    campaign_archive(campaign=campaign, actor=gm)
    pages["archived"] = client.get(f"/invites/{live_token}").content.decode()
    assert {name: _shown(page) for name, page in pages.items()} == {
        "expired": [], "used up": [], "archived": [],
    }  # fmt: skip
    assert "This invite has expired." in pages["expired"]
    assert "This invite has no uses left." in pages["used up"]
    assert "This campaign is archived." in pages["archived"]
    # Not dead: the holder is told how it can work again.
    assert (
        '<p class="muted">The link works again if the campaign&#x27;s owner restores it before '
        "the link expires.</p>" in pages["archived"]
    )
    assert "Ask the campaign&#x27;s owner or a GM for a new invite link." in pages["used up"]


def test_a_requester_still_sees_the_campaign_their_request_waits_on_after_the_link_is_used_up(
    domains, client, campaign, gm, player
):
    _invite_row, token = _invite(campaign, gm)
    invite_accept(token=token, user=player)
    client.force_login(player)
    response = client.get(f"/invites/{token}")
    page = response.content.decode()
    assert response.status_code == 200
    assert "<h1>The Sunless Citadel</h1>" in page
    assert "Your request is waiting for a GM's decision." in page
