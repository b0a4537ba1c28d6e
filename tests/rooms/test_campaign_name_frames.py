"""A room page whose socket was not there when the campaign was renamed (dropped and reconnected,
or its subscription quietly gone) is still told the name: the hello of every connection carries
it, and a heartbeat that reads a newer one than the socket told its page sends it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone

from apps.campaigns.models import Campaign, CampaignMembership
from apps.projections import dispatch
from apps.projections.models import OutboxEvent
from apps.projections.services import outbox_dispatch_pending, outbox_emit
from tests.rooms.factories import make_campaign

from .test_consumer import frames_until_caught_up, open_socket
from .test_missed_room_events import HEARTBEAT, frames_over_beats

Role = CampaignMembership.Role
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(make_user):
    owner, player = make_user(), make_user()
    campaign, ms = make_campaign(owner, (player, Role.PLAYER))
    return campaign, ms[0], ms[1]


def _renamed(campaign, name: str, revision: int, *, delivered: bool) -> OutboxEvent:
    """What a rename commits: the name, and its announcement; one not `delivered` was published
    while the socket's subscription was down (marked dispatched, never received)."""
    with transaction.atomic():
        Campaign.objects.filter(pk=campaign.pk).update(name=name, name_revision=revision)
        row = outbox_emit(
            event_type="campaign.renamed",
            campaign_id=campaign.id,
            payload={"name": name, "name_revision": revision},
        )
    if not delivered:
        OutboxEvent.objects.filter(id=row.id).update(
            dispatched_at=timezone.now(), created_at=timezone.now() - timedelta(seconds=5)
        )
    return row


async def _frame_of_type(sock, kind: str) -> dict:
    while (frame := await sock.receive_json_from(timeout=5))["type"] != kind:
        pass
    return frame


def _names(frames: list) -> list:
    return [f for f in frames if f["type"] == "campaign"]


async def test_every_connection_is_told_the_campaigns_name_in_its_hello(memory_layer, table):
    campaign, owner, player = table
    await database_sync_to_async(_renamed)(campaign, "Tomb of Annihilation", 4, delivered=False)

    sock = await open_socket(campaign, player.user)
    hello = await sock.receive_json_from(timeout=3)

    assert hello == {
        "type": "hello",
        "user_id": str(player.user_id),
        "role": "player",
        "heartbeat_seconds": 20.0,
        "campaign": {"name": "Tomb of Annihilation", "name_revision": 4},
    }
    await sock.disconnect()


async def test_a_rename_the_socket_missed_is_sent_at_the_next_heartbeat_once(
    memory_layer, table, settings, monkeypatch
):
    settings.ROOMS_HEARTBEAT_SECONDS = HEARTBEAT
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)
    campaign, owner, player = table
    sock = await open_socket(campaign, player.user)
    assert await frames_until_caught_up(sock) == ([], 0)

    await database_sync_to_async(_renamed)(campaign, "Tomb of Annihilation", 4, delivered=False)

    assert _names(await frames_over_beats(sock, 4)) == [
        {"type": "campaign", "name": "Tomb of Annihilation", "name_revision": 4}
    ]
    await sock.disconnect()


async def test_a_rename_the_socket_was_sent_is_not_sent_again_at_the_heartbeat(
    memory_layer, table, settings, monkeypatch
):
    settings.ROOMS_HEARTBEAT_SECONDS = HEARTBEAT
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)
    campaign, owner, player = table
    sock = await open_socket(campaign, player.user)
    assert await frames_until_caught_up(sock) == ([], 0)

    row = await database_sync_to_async(_renamed)(
        campaign, "Tomb of Annihilation", 4, delivered=True
    )
    assert await database_sync_to_async(outbox_dispatch_pending)() == 1

    # A beat that reads the committed name before the announcement reaches the socket sends
    # the name itself (the page has not been told yet); on a loaded machine one may.
    event = await _frame_of_type(sock, "event")
    assert event == {
        "type": "event",
        "event_type": "campaign.renamed",
        "outbox_id": row.id,
        "payload": {"name": "Tomb of Annihilation", "name_revision": 4},
    }
    assert _names(await frames_over_beats(sock, 4)) == []
    await sock.disconnect()
