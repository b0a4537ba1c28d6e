"""Fixtures: a live dnd5e server process (temp keys) and campaigns created through it."""

from __future__ import annotations

import uuid

import pytest

from tests.domains.conftest import domain_env  # noqa: F401  (a module-scoped live server)


@pytest.fixture
def domains(domain_env):  # noqa: F811
    return domain_env


@pytest.fixture
def gm(make_user):
    return make_user("gm@example.test", display_name="Gail GM")


@pytest.fixture
def player(make_user):
    return make_user("player@example.test", display_name="Pat Player")


@pytest.fixture
def make_campaign(domains):
    from apps.campaigns.services.campaigns import campaign_create

    def make(owner, name="The Sunless Citadel"):
        return campaign_create(
            owner=owner, name=name, system_id="dnd5e", idempotency_key=uuid.uuid4().hex
        )

    return make


@pytest.fixture
def campaign(make_campaign, gm):
    return make_campaign(gm)


def domain_view(campaign, requester):
    """campaign_get on the live server as `requester` (the authority's view)."""
    from apps.domains.client import domain_call

    return domain_call(
        system_id=campaign.system_id,
        tool="campaign_get",
        arguments={},
        requester=requester,
        campaign_id=str(campaign.id),
    )


def domain_members(campaign, requester) -> dict[str, str]:
    view = domain_view(campaign, requester).structured["campaign"]
    return {m["principal"]: m["role"] for m in view["members"]}


def join(campaign, actor, user, role="player"):
    """Make `user` a member through the real flow: request-mode invite, then approval."""
    from datetime import timedelta

    from apps.campaigns.services.invites import invite_accept, invite_create
    from apps.campaigns.services.membership import join_request_decide

    _invite, token = invite_create(
        campaign=campaign, actor=actor, mode="request", expires_in=timedelta(hours=1),
        max_uses=1, role=role,
    )  # fmt: skip
    outcome = invite_accept(token=token, user=user)
    join_request_decide(join_request=outcome.join_request, actor=actor, decision="approve")
    campaign.refresh_from_db()
