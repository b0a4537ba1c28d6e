"""Fixtures for job tests: a Django campaign on the live dnd5e server, members, eager Celery."""

from __future__ import annotations

import uuid

import pytest

from apps.campaigns.models import CampaignMembership
from apps.domains.client import domain_call
from sagasmith_web.celery import app as celery_app
from tests.campaigns.conftest import join


@pytest.fixture
def eager():
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.fixture
def panel_reads(monkeypatch) -> list[str]:
    """The read tools the panel and projection code call from now on, in order."""
    import apps.turns.panels as panels
    import apps.turns.projections as projections

    reads: list[str] = []
    real = projections.domain_call

    def counted(**kwargs):
        reads.append(kwargs["tool"])
        return real(**kwargs)

    monkeypatch.setattr(projections, "domain_call", counted)
    monkeypatch.setattr(panels, "domain_call", counted)
    return reads


@pytest.fixture
def turn_urls(settings):
    settings.ROOT_URLCONF = "tests.turns.urls"


@pytest.fixture
def dnd_room(live_domains, gm, player, make_user):
    """A dnd5e campaign (GM owner + one player) with a room; returns a simple namespace."""
    from apps.campaigns.services.campaigns import campaign_create
    from apps.rooms.services import room_get_or_create

    campaign = campaign_create(
        owner=gm, name="Keep", system_id="dnd5e", idempotency_key=uuid.uuid4().hex
    )
    join(campaign, gm, player)
    room_get_or_create(campaign=campaign)
    campaign.refresh_from_db()
    return Room(campaign=campaign, gm=gm, player=player)


class Room:
    def __init__(self, *, campaign, gm, player) -> None:
        self.campaign = campaign
        self.gm = gm
        self.player = player

    def membership(self, user) -> CampaignMembership:
        membership = CampaignMembership.objects.select_related("campaign", "user").get(
            campaign=self.campaign, user=user
        )
        return membership

    def domain_revision(self) -> int:
        return domain_call(
            system_id="dnd5e", tool="campaign_get", arguments={}, requester=self.gm,
            campaign_id=str(self.campaign.id),
        ).authority_revision  # fmt: skip
