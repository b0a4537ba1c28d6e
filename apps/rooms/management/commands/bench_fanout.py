"""Fan-out latency: post -> receipt by every websocket client, next to a raw group_send."""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.urls import path

from apps.accounts.models import User
from apps.campaigns.models import Campaign, CampaignMembership
from apps.projections.groups import room_group
from apps.rooms.consumers import RoomConsumer
from apps.rooms.services import room_message_post


class BenchRoomConsumer(RoomConsumer):
    async def bench_raw(self, event):
        # The baseline: the same sockets and groups, a bare forward with no outbox or filter.
        await self.send_json({"type": "raw", "n": event["n"]})


def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Command(BaseCommand):
    help = "Measure room fan-out latency (p50/p99) against a raw channel-layer group_send."

    def add_arguments(self, parser):
        parser.add_argument("--rooms", type=int, default=20)
        parser.add_argument("--clients-per-room", type=int, default=10)
        parser.add_argument("--messages", type=int, default=50)

    def handle(self, *args, rooms, clients_per_room, messages, **options):
        from tests.rooms.factories import WebsocketCommunicator  # noqa: F401 (import check)

        tag = uuid.uuid4().hex[:8]
        setups = []
        for r in range(rooms):
            users = [
                User.objects.create_user(email=f"bench-{tag}-{r}-{c}@example.test", password=None)
                for c in range(clients_per_room)
            ]
            campaign = Campaign.objects.create(
                name=f"bench {tag} {r}", system_id="dnd5e", owner=users[0]
            )
            memberships = [
                CampaignMembership.objects.create(
                    campaign=campaign,
                    user=u,
                    role=CampaignMembership.Role.OWNER
                    if i == 0
                    else CampaignMembership.Role.PLAYER,
                )
                for i, u in enumerate(users)
            ]
            for m in memberships:
                m.campaign = campaign
            setups.append((campaign, users, memberships))
        try:
            raw, live = asyncio.run(self._run(setups, messages))
        finally:
            Campaign.objects.filter(name__startswith=f"bench {tag}").delete()
            User.objects.filter(email__startswith=f"bench-{tag}-").delete()
        p50r, p99r = pct(raw, 50), pct(raw, 99)
        p50, p99 = pct(live, 50), pct(live, 99)
        self.stdout.write(
            f"deliveries: {len(live)} (rooms={rooms} clients/room={clients_per_room} "
            f"messages/room={messages})\n"
            f"raw group_send  p50={p50r:.2f} ms  p99={p99r:.2f} ms\n"
            f"room post->recv p50={p50:.2f} ms  p99={p99:.2f} ms"
            f"  mean={statistics.mean(live):.2f} ms\n"
            f"ratio p50 room/raw = {p50 / p50r:.2f}x  (target <= 3x; p99 target <= 100 ms)"
        )

    async def _run(self, setups, messages):
        from tests.rooms.factories import WebsocketCommunicator

        app = URLRouter([path("ws/rooms/<str:campaign_id>/", BenchRoomConsumer.as_asgi())])
        layer = get_channel_layer()
        rooms = []
        for campaign, users, memberships in setups:
            socks = []
            for user in users:
                comm = WebsocketCommunicator(app, f"/ws/rooms/{campaign.id}/?after=0")
                comm.scope["user"] = user
                ok, _ = await comm.connect(timeout=10)
                assert ok
                while (await comm.receive_json_from(timeout=10))["type"] != "caught_up":
                    pass
                socks.append(comm)
            rooms.append((campaign, memberships, socks))

        async def drain_until(comm, kind, key, value):
            while True:
                frame = await comm.receive_json_from(timeout=10)
                if frame["type"] == kind and key(frame) == value:
                    return time.perf_counter()

        post = sync_to_async(self._post, thread_sensitive=False)

        async def one_room(campaign, memberships, socks, mode):
            lat = []
            for i in range(messages):
                t0 = time.perf_counter()
                if mode == "raw":
                    await layer.group_send(room_group(campaign.id), {"type": "bench.raw", "n": i})
                    waits = [drain_until(s, "raw", lambda f: f["n"], i) for s in socks]
                else:
                    waits = [
                        drain_until(s, "entry", lambda f: f["entry"]["sequence"], i + 1)
                        for s in socks
                    ]
                    await post(memberships[i % 2], i)
                got = await asyncio.gather(*waits)
                lat.extend((t - t0) * 1000 for t in got)
            return lat

        results = {}
        for mode in ("raw", "live"):
            per_room = await asyncio.gather(*(one_room(c, m, s, mode) for c, m, s in rooms))
            results[mode] = [x for room in per_room for x in room]
        for _c, _m, socks in rooms:
            for s in socks:
                await s.disconnect()
        return results["raw"], results["live"]

    @staticmethod
    def _post(membership, i):
        try:
            room_message_post(
                membership=membership,
                body=f"bench {i}",
                mode="chat",
                client_message_id=f"bench-{i}",
            )
        finally:
            close_old_connections()
