"""How long ago a join request was made, as the settings page says it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.campaigns.models import JoinRequest
from apps.campaigns.services.invites import invite_accept, invite_create

pytestmark = pytest.mark.django_db


def _request_ages(page: str) -> list[str]:
    section = page.split('aria-labelledby="h-requests"')[1].split("</section>")[0]
    return re.findall(r'<span class="muted small">([^<]*)</span>', section)


def test_a_join_request_made_within_the_minute_was_made_just_now(
    domains, client, campaign, gm, make_user
):
    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1),
        max_uses=2, role="player",
    )  # fmt: skip
    invite_accept(token=token, user=make_user("new@example.test", display_name="Newt"))
    later = invite_accept(token=token, user=make_user("old@example.test", display_name="Olde"))
    JoinRequest.objects.filter(pk=later.join_request.pk).update(
        created_at=timezone.now() - timedelta(hours=2, minutes=3)
    )
    client.force_login(gm)
    page = client.get(f"/campaigns/{campaign.id}/settings").content.decode()
    assert sorted(_request_ages(page)) == ["2\xa0hours, 3\xa0minutes ago", "just now"]
