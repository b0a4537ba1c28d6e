"""Who the room lists under "Here now": one entry per person, and nobody whose socket is gone."""

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from apps.campaigns.models import CampaignMembership
from apps.projections.groups import room_group
from apps.rooms.models import Presence
from apps.rooms.services import PRESENCE_TTL, room_get_or_create

from .factories import ORIGIN, WebsocketCommunicator, make_campaign, socket_app

Role = CampaignMembership.Role
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(make_user):
    owner, p1 = make_user(), make_user()
    campaign, ms = make_campaign(owner, (p1, Role.PLAYER))
    return campaign, ms[0], ms[1]


async def _presence(comm) -> list[str]:
    """The ids in the next presence frame (other frames skipped)."""
    while True:
        frame = await comm.receive_json_from(timeout=3)
        if frame["type"] == "presence":
            return sorted(u["id"] for u in frame["users"])


async def test_a_socket_whose_process_died_leaves_here_now_once_its_beats_stop(
    memory_layer, table, settings
):
    settings.ROOMS_HEARTBEAT_SECONDS = 0.2
    campaign, owner, player = table

    def ghost():
        # The player's socket lived on a worker that restarted: no disconnect ever ran for it.
        room = room_get_or_create(campaign=campaign)
        return Presence.objects.create(
            room=room, user=player.user, channel_name="gone!1", last_seen=timezone.now()
        )

    row = await database_sync_to_async(ghost)()
    comm = WebsocketCommunicator(
        socket_app(), f"/ws/rooms/{campaign.id}/?after=0", headers=[ORIGIN]
    )
    comm.scope["user"] = owner.user
    assert (await comm.connect())[0]
    assert await _presence(comm) == sorted([str(owner.user_id), str(player.user_id)])
    # Its last beat is now older than the presence lifetime.
    await database_sync_to_async(Presence.objects.filter(pk=row.pk).update)(
        last_seen=timezone.now() - PRESENCE_TTL - PRESENCE_TTL / 10
    )
    # Within two beats the room is told who is still here.
    frames = []
    while [f["type"] for f in frames].count("heartbeat") < 2:
        frames.append(await comm.receive_json_from(timeout=3))
    assert [[u["id"] for u in f["users"]] for f in frames if f["type"] == "presence"] == [
        [str(owner.user_id)]
    ]
    assert await database_sync_to_async(
        lambda: list(Presence.objects.values_list("user_id", flat=True))
    )() == [owner.user_id]
    await comm.disconnect()


async def test_a_late_presence_broadcast_is_corrected_by_the_next_beat(
    memory_layer, table, settings
):
    settings.ROOMS_HEARTBEAT_SECONDS = 0.2
    campaign, owner, player = table
    comm = WebsocketCommunicator(
        socket_app(), f"/ws/rooms/{campaign.id}/?after=0", headers=[ORIGIN]
    )
    comm.scope["user"] = owner.user
    assert (await comm.connect())[0]
    assert await _presence(comm) == [str(owner.user_id)]
    # Sockets opening at once (everyone reconnecting after a restart) each broadcast the list
    # they read: one read before the others joined can arrive last.
    layer = get_channel_layer()
    await layer.group_send(room_group(campaign.id), {"type": "presence.update", "users": []})
    frames = []
    while [f["type"] for f in frames].count("heartbeat") < 2:
        frames.append(await comm.receive_json_from(timeout=3))
    assert [[u["id"] for u in f["users"]] for f in frames if f["type"] == "presence"] == [
        [],
        [str(owner.user_id)],
    ]
    await comm.disconnect()
