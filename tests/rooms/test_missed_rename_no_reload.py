"""A rename a room page missed (its socket was away or its subscription down) is sent with the
next heartbeat as the name alone: the page does not also read its panels again, as it would
for a missed state change, because a new name changes nothing they show."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from apps.projections import dispatch

from .test_campaign_name_frames import _renamed, table  # noqa: F401
from .test_consumer import frames_until_caught_up, open_socket
from .test_missed_room_events import HEARTBEAT, frames_over_beats

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_missed_rename_is_sent_as_the_name_without_a_panel_reload(
    memory_layer,
    table,  # noqa: F811
    settings,
    monkeypatch,
):
    settings.ROOMS_HEARTBEAT_SECONDS = HEARTBEAT
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)
    campaign, _owner, player = table
    sock = await open_socket(campaign, player.user)
    assert await frames_until_caught_up(sock) == ([], 0)

    await database_sync_to_async(_renamed)(campaign, "Tomb of Annihilation", 4, delivered=False)

    frames = await frames_over_beats(sock, 6)
    assert [f for f in frames if f["type"] in ("event", "campaign")] == [
        {"type": "campaign", "name": "Tomb of Annihilation", "name_revision": 4}
    ]
    await sock.disconnect()
