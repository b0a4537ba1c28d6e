"""A rename is announced to the campaign's room (`campaign.renamed`, written with the new name),
so every open room page shows the new name at once; a rename that changes nothing here
announces nothing."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from apps.campaigns.models import Campaign
from apps.campaigns.services import campaigns
from apps.campaigns.services.campaigns import campaign_rename
from apps.core.errors import ValidationFailed
from apps.projections.models import OutboxEvent
from apps.projections.services import outbox_dispatch_pending
from tests.campaigns.conftest import join
from tests.rooms.factories import ORIGIN, WebsocketCommunicator, socket_app


def _renamed() -> list[tuple]:
    return list(
        OutboxEvent.objects.filter(event_type="campaign.renamed").values_list(
            "campaign_id", "audience", "payload"
        )
    )


@pytest.mark.django_db
def test_a_rename_announces_the_new_name_and_its_revision_to_everyone_in_the_room(
    domains, campaign, gm
):
    renamed = campaign_rename(campaign=campaign, actor=gm, name="  Tomb of Annihilation ")

    stored = Campaign.objects.get(pk=campaign.pk)
    assert stored.name_revision == renamed.authority_revision
    assert _renamed() == [
        (
            campaign.id,
            "public",
            {
                "name": "Tomb of Annihilation",
                "name_revision": stored.name_revision,
                "access_version": stored.access_version,
            },
        )
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("name", [" The Sunless Citadel ", "", "Ash\u202ekcatta"])
def test_the_same_name_or_a_refused_one_announces_nothing(domains, campaign, gm, name):
    try:
        campaign_rename(campaign=campaign, actor=gm, name=name)
    except ValidationFailed:
        pass

    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"
    assert _renamed() == []


@pytest.mark.django_db
def test_the_earlier_of_two_overlapping_renames_announces_nothing(
    domains, campaign, gm, monkeypatch
):
    real = campaigns.authority_write
    overtaken = []

    def write_then_overtaken(**kwargs):
        result = real(**kwargs)
        if not overtaken:
            overtaken.append(True)
            campaign_rename(campaign=campaign, actor=gm, name="Second")
        return result

    monkeypatch.setattr(campaigns, "authority_write", write_then_overtaken)
    campaign_rename(campaign=campaign, actor=gm, name="First")

    assert [payload["name"] for _id, _audience, payload in _renamed()] == ["Second"]


@pytest.mark.django_db(transaction=True)
async def test_a_players_open_room_socket_is_sent_the_new_name(
    memory_layer, domains, campaign, gm, player
):
    await database_sync_to_async(join)(campaign, gm, player)
    # Announcements from before the socket opened are not part of this story.
    await database_sync_to_async(OutboxEvent.objects.update)(dispatched_at=timezone.now())
    comm = WebsocketCommunicator(socket_app(), f"/ws/rooms/{campaign.id}/", headers=[ORIGIN])
    comm.scope["user"] = player
    assert (await comm.connect())[0]
    while (await comm.receive_json_from(timeout=3))["type"] != "caught_up":
        pass

    renamed = await database_sync_to_async(campaign_rename)(
        campaign=campaign, actor=gm, name="Tomb of Annihilation"
    )
    assert await database_sync_to_async(outbox_dispatch_pending)() == 1
    event = await database_sync_to_async(OutboxEvent.objects.get)(event_type="campaign.renamed")
    frame = await comm.receive_json_from(timeout=3)
    while frame["type"] == "presence":
        frame = await comm.receive_json_from(timeout=3)

    assert frame == {
        "type": "event",
        "event_type": "campaign.renamed",
        "outbox_id": event.id,
        "payload": {
            "name": "Tomb of Annihilation",
            "name_revision": renamed.authority_revision,
        },
    }
    await comm.disconnect()
