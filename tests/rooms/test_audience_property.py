"""Property: for every viewer, the HTTP list and the websocket stream (replay, then live with
shuffled and duplicated publications) are exactly the entries that viewer may see, in order."""

import random

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from apps.campaigns.models import CampaignMembership
from apps.projections.dispatch import publish_events
from apps.projections.models import OutboxEvent
from apps.rooms.services import room_event_record, room_message_post

from .factories import make_campaign
from .test_consumer import open_socket

Role = CampaignMembership.Role
ROLES = [Role.GM, Role.PLAYER, Role.PLAYER, Role.OBSERVER]

message = st.tuples(
    st.integers(0, 5),  # sender index (mod member count)
    st.sampled_from(["chat", "action", "narration"]),
    st.sampled_from(["public", "gm", "private"]),
    st.sets(st.integers(0, 5), min_size=1, max_size=3),  # recipient indexes
)


def oracle(viewer, sender, audience, recipients) -> bool:
    """Written independently of apps.rooms.selectors on purpose."""
    if viewer.role in ("owner", "gm"):
        return True
    return (
        audience == "public"
        or (sender is not None and sender.user_id == viewer.user_id)
        or (audience == "private" and viewer.user_id in recipients)
    )


@pytest.mark.django_db(transaction=True)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    roles=st.lists(st.sampled_from(ROLES), min_size=1, max_size=4),
    messages=st.lists(message, min_size=1, max_size=12),
    split=st.integers(0, 12),
    seed=st.integers(0, 2**16),
)
def test_every_path_shows_exactly_what_the_viewer_may_see(
    memory_layer, make_user, roles, messages, split, seed
):
    owner = make_user()
    campaign, members = make_campaign(owner, *[(make_user(), r) for r in roles])
    posted = []  # (sequence, sender membership, audience, recipient user ids)

    def post_all(batch):
        for i, (s, mode, audience, rec) in enumerate(batch):
            sender = members[s % len(members)]
            if sender.role == Role.OBSERVER:
                continue
            if sender.role not in ("owner", "gm"):
                mode, audience = ("chat" if mode == "narration" else mode), "public"
            recipients = sorted({members[r % len(members)].user_id for r in rec})
            msg, _ = room_message_post(
                membership=sender,
                body=f"m{len(posted)}",
                mode=mode,
                audience=audience,
                recipient_ids=recipients if audience == "private" else [],
                client_message_id=f"c{len(posted)}-{i}",
            )
            posted.append((msg.sequence, sender, audience, set(recipients)))

    post_all(messages[:split])
    # The first half is only ever replayed; publish nothing for it.
    OutboxEvent.objects.update(dispatched_at=None)
    OutboxEvent.objects.all().delete()

    async def stream():
        # Hypothesis reseeds `random` for every example, so the in-memory layer names channels
        # identically each time: start from an empty layer, or a socket would receive what the
        # previous example's sockets left undelivered (an entry of another room, by sequence).
        await get_channel_layer().flush()
        socks = [await open_socket(campaign, m.user) for m in members]
        await database_sync_to_async(post_all)(messages[split:])
        rows = await database_sync_to_async(list)(OutboxEvent.objects.order_by("id"))
        # At-least-once and unordered: every row once in random order, some twice.
        rng = random.Random(seed)
        publications = rows + rng.sample(rows, k=len(rows) // 2)
        rng.shuffle(publications)
        await publish_events(publications)
        # A public end marker, published last: every viewer's stream is complete once it has it,
        # so the wait is on a sequence rather than on silence.
        end = await database_sync_to_async(room_event_record)(campaign=campaign, event_type="end")
        posted.append((end.sequence, None, "public", set()))
        await publish_events([await database_sync_to_async(OutboxEvent.objects.last)()])
        result = []
        for sock in socks:
            got = []
            while not got or got[-1] != end.sequence:
                frame = await sock.receive_json_from(timeout=3)
                if frame["type"] == "entry":
                    got.append(frame["entry"]["sequence"])
            await sock.disconnect()
            result.append(got)
        return result

    streams = async_to_sync(stream)()
    client = APIClient()
    for viewer, ws_seqs in zip(members, streams, strict=True):
        expected = [seq for seq, s, a, r in posted if oracle(viewer, s, a, r)]
        client.force_authenticate(viewer.user)
        body = client.get(f"/api/campaigns/{campaign.id}/room/messages", {"limit": 200}).data
        http_seqs = [e["sequence"] for e in body["results"]]
        assert http_seqs == expected, viewer.role
        assert ws_seqs == expected, viewer.role
