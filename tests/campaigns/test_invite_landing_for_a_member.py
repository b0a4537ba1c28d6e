"""An invite opened by someone already in its campaign: the page says they are a member and
leads to the campaign and its room, with nothing about how joining would go."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db


def _card(html: str) -> str:
    start = html.index('<section class="card">')
    return " ".join(html[start : html.index("</section>", start)].split())


def test_a_member_opening_an_invite_sees_only_that_they_are_a_member(
    domains, client, campaign, gm, player
):
    from apps.campaigns.services.invites import invite_create

    join(campaign, gm, player)
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1), max_uses=1
    )
    client.force_login(player)

    card = _card(client.get(f"/invites/{token}").content.decode())

    assert "Joining" not in card
    assert "A GM approves your request" not in card
    assert (
        '<p>You are already a member.</p> <p class="row">'
        f'<a class="button button--primary" href="/campaigns/{campaign.id}/room/">Enter room</a>'
        f' <a class="button" href="/campaigns/{campaign.id}/">Open campaign</a></p>'
    ) in card
