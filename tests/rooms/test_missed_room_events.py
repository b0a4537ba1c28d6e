"""An open socket that missed room events other than entries (a state change, job progress) tells
its page at the next heartbeat to read its panels again, as the page does on `state.changed`.
After a Redis restart redis-py resubscribes quietly: what was published meanwhile never reaches
the socket, and entries alone come back by their sequence gap."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.campaigns.models import CampaignMembership
from apps.projections import dispatch
from apps.projections.groups import room_group
from apps.projections.models import OutboxEvent
from apps.projections.services import outbox_emit
from apps.rooms.models import Presence
from apps.rooms.selectors import room_events_missed
from tests.conftest import require_postgres
from tests.rooms.factories import make_campaign

from .test_consumer import frames_until_caught_up, open_socket

Role = CampaignMembership.Role
pytestmark = pytest.mark.django_db(transaction=True)

HEARTBEAT = 0.3


@pytest.fixture
def table(make_user):
    owner, player = make_user(), make_user()
    campaign, ms = make_campaign(owner, (player, Role.PLAYER))
    return campaign, ms[0], ms[1]


async def frames_over_beats(sock, beats: int) -> list:
    """The frames sent over the next `beats` heartbeats (the last heartbeat included), presence
    aside."""
    frames = []
    while beats:
        frame = await sock.receive_json_from(timeout=5)
        if frame["type"] == "presence":
            continue
        frames.append(frame)
        beats -= frame["type"] == "heartbeat"
    return frames


def events(frames: list) -> list:
    return [f for f in frames if f["type"] == "event"]


async def channel_of(user):
    return await database_sync_to_async(
        lambda: Presence.objects.values_list("channel_name", flat=True).get(user=user)
    )()


def emit_unsent(**event) -> OutboxEvent:
    """A row published while the socket's subscription was down: marked dispatched, never
    received. Older than the heartbeat's settling time."""
    with transaction.atomic():
        row = outbox_emit(**event)
    OutboxEvent.objects.filter(id=row.id).update(
        dispatched_at=timezone.now(), created_at=timezone.now() - timedelta(seconds=5)
    )
    return row


@pytest.fixture
def unpublished(monkeypatch):
    monkeypatch.setattr(dispatch, "publishes_on_commit", lambda: False)


async def test_job_progress_published_while_the_subscription_was_down_reaches_the_page(
    redis_layer, table, settings
):
    settings.ROOMS_HEARTBEAT_SECONDS = HEARTBEAT
    campaign, owner, player = table
    sock = await open_socket(campaign, player.user)
    assert await frames_until_caught_up(sock) == ([], 0)
    layer, channel = get_channel_layer(), await channel_of(player.user)

    # Redis restarts: the socket's subscription is gone until redis-py makes it again, while
    # the publisher (its own connection) publishes a job's progress and marks it dispatched.
    await layer.group_discard(room_group(campaign.id), channel)
    row = await database_sync_to_async(outbox_emit)(
        event_type="turn.job",
        campaign_id=campaign.id,
        payload={"id": "job-1", "status": "succeeded"},
        audience={"users": [str(player.user_id)]},
    )
    for _ in range(100):
        if await database_sync_to_async(
            OutboxEvent.objects.filter(id=row.id, dispatched_at__isnull=False).exists
        )():
            break
        await asyncio.sleep(0.05)
    await layer.group_add(room_group(campaign.id), channel)

    # Settled rows only (a second old): the notice comes within a few beats, then never again.
    frames = await frames_over_beats(sock, 8)
    assert events(frames) == [
        {"type": "event", "event_type": "state.changed", "outbox_id": row.id, "payload": {}}
    ]
    assert frames[-1] == {"type": "heartbeat"}
    await sock.disconnect()


async def test_a_missed_state_change_is_told_to_the_pages_that_may_see_it_only(
    redis_layer, table, settings, unpublished
):
    settings.ROOMS_HEARTBEAT_SECONDS = HEARTBEAT
    campaign, owner, player = table
    gm_sock = await open_socket(campaign, owner.user)
    player_sock = await open_socket(campaign, player.user)
    for sock in (gm_sock, player_sock):
        assert await frames_until_caught_up(sock) == ([], 0)

    row = await database_sync_to_async(emit_unsent)(
        event_type="state.changed",
        campaign_id=campaign.id,
        payload={"authority_revision": 3, "changed_scopes": ["combat"]},
        audience="gm",
    )
    assert events(await frames_over_beats(gm_sock, 2)) == [
        {"type": "event", "event_type": "state.changed", "outbox_id": row.id, "payload": {}}
    ]
    assert events(await frames_over_beats(player_sock, 3)) == []
    await gm_sock.disconnect()
    await player_sock.disconnect()


async def test_a_later_event_the_page_was_not_sent_does_not_hide_a_missed_one(
    redis_layer, table, settings, unpublished
):
    """Only an event the page was sent made it read its panels: one filtered out for this viewer
    covers nothing missed before it."""
    settings.ROOMS_HEARTBEAT_SECONDS = 60  # the first beat is started by hand below
    campaign, owner, player = table
    sock = await open_socket(campaign, player.user)
    assert await frames_until_caught_up(sock) == ([], 0)
    missed = await database_sync_to_async(emit_unsent)(
        event_type="state.changed",
        campaign_id=campaign.id,
        payload={"authority_revision": 3, "changed_scopes": ["card"]},
        audience="public",
    )
    gm_only = await database_sync_to_async(emit_unsent)(
        event_type="state.changed",
        campaign_id=campaign.id,
        payload={"authority_revision": 4, "changed_scopes": ["combat"]},
        audience="gm",
    )
    await dispatch.publish_events([gm_only])  # live, and filtered out for the player
    await asyncio.sleep(0.3)  # let it arrive first: it sends this page nothing to wait for
    layer, channel = get_channel_layer(), await channel_of(player.user)
    await layer.send(channel, {"type": "room.tick"})
    frames = await frames_over_beats(sock, 1)
    assert events(frames) == [
        {"type": "event", "event_type": "state.changed", "outbox_id": missed.id, "payload": {}}
    ]
    await sock.disconnect()


async def test_events_the_page_was_sent_or_that_came_before_it_connected_send_no_notice(
    redis_layer, table, settings
):
    settings.ROOMS_HEARTBEAT_SECONDS = HEARTBEAT

    def older_change():
        with transaction.atomic():
            outbox_emit(
                event_type="state.changed",
                campaign_id=campaign.id,
                payload={"authority_revision": 2, "changed_scopes": ["card"]},
            )
        OutboxEvent.objects.update(
            dispatched_at=timezone.now(), created_at=timezone.now() - timedelta(seconds=5)
        )

    campaign, owner, player = table
    await database_sync_to_async(older_change)()
    sock = await open_socket(campaign, player.user)
    assert await frames_until_caught_up(sock) == ([], 0)
    live = await database_sync_to_async(outbox_emit)(
        event_type="state.changed",
        campaign_id=campaign.id,
        payload={"authority_revision": 3, "changed_scopes": ["card"]},
    )
    frames = await frames_over_beats(sock, 6)
    assert [(f["event_type"], f["outbox_id"]) for f in events(frames)] == [
        ("state.changed", live.id)
    ]
    assert events(frames)[0]["payload"] != {}  # the event itself, not a notice
    await sock.disconnect()


def test_the_heartbeat_reads_missed_events_in_one_indexed_query(table):
    require_postgres()
    campaign, owner, player = table
    with CaptureQueriesContext(connection) as queries:
        assert room_events_missed(
            campaign_id=campaign.id, after=0, viewer_user_id=player.user_id, viewer_role="player"
        ) == (0, None)
    assert len(queries) == 1
    with connection.cursor() as cursor:
        # A table this small is read whole anyway: ask whether the index serves the query.
        cursor.execute("SET enable_seqscan = off")
        try:
            cursor.execute(f"EXPLAIN {queries[0]['sql']}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("RESET enable_seqscan")
    assert "projections_outbox_room_events" in plan
