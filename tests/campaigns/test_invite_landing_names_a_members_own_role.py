"""An invite opened by someone already in its campaign: the page's facts give the role they hold,
not the role the link would grant a newcomer (a player opening an observer link read "Role:
Observer" above "You are already a member.")."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db


def _facts(html: str) -> list[tuple[str, str]]:
    facts = html[html.index('<dl class="facts">') : html.index("</dl>")]
    return re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", facts, re.S)


def _observer_link(campaign, gm) -> str:
    from apps.campaigns.services.invites import invite_create

    _invite, token = invite_create(
        campaign=campaign, actor=gm, mode="request", role="observer",
        expires_in=timedelta(hours=1), max_uses=1,
    )  # fmt: skip
    return f"/invites/{token}"


def test_a_member_reads_the_role_they_hold_not_the_links(domains, client, campaign, gm, player):
    join(campaign, gm, player)
    link = _observer_link(campaign, gm)

    client.force_login(player)
    as_player = _facts(client.get(link).content.decode())
    client.force_login(gm)
    as_owner = _facts(client.get(link).content.decode())

    assert as_player == [
        ("System", "D&amp;D 5e (SRD 5.1)"),
        ("Game master", "Gail GM"),
        ("Your role", "Player"),
    ]
    assert as_owner == [
        ("System", "D&amp;D 5e (SRD 5.1)"),
        ("Game master", "Gail GM"),
        ("Your role", "Owner"),
    ]


def test_someone_not_yet_a_member_reads_the_role_the_link_grants(
    domains, client, campaign, gm, make_user
):
    link = _observer_link(campaign, gm)

    client.force_login(make_user("newcomer@example.test", display_name="Nell"))
    facts = _facts(client.get(link).content.decode())

    assert facts == [
        ("System", "D&amp;D 5e (SRD 5.1)"),
        ("Game master", "Gail GM"),
        ("Role", "Observer"),
        ("Joining", "A GM approves your request"),
    ]
