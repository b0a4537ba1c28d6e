"""Fan-out latency: post -> receipt by every websocket client, next to a raw group_send.

The shape of production: a uvicorn server process (the real websocket stack: origin check,
session auth, RoomConsumer) holds the sockets; real websocket clients connect with session
cookies; messages are posted through the service from a web-side thread pool in this process,
so publication goes through the outbox, the after-commit hook and the process publisher. The
baseline is a bare channel-layer group_send to the same sockets, interleaved in the same run.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

CAPACITY_ENV = "SAGASMITH_BENCH_CHANNEL_CAPACITY"
WAIT = 10.0


def _apply_capacity() -> None:
    """Let a run try a channel-layer capacity without editing settings (both processes)."""
    capacity = os.environ.get(CAPACITY_ENV)
    if capacity and "redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"].lower():
        from channels.layers import channel_layers

        settings.CHANNEL_LAYERS["default"].setdefault("CONFIG", {})["capacity"] = int(capacity)
        channel_layers.backends = {}


def bench_application():
    """uvicorn --factory target: the production websocket stack with the bench consumer.

    This module is imported before Django is set up there, hence the imports in here.
    """
    import django

    django.setup()
    _apply_capacity()
    from channels.auth import AuthMiddlewareStack
    from channels.routing import ProtocolTypeRouter, URLRouter
    from channels.security.websocket import AllowedHostsOriginValidator
    from django.urls import path

    from apps.rooms.consumers import RoomConsumer

    class BenchRoomConsumer(RoomConsumer):
        async def bench_raw(self, event):
            # The baseline: the same sockets and groups, a bare forward, no outbox or filter.
            await self.send_json({"type": "raw", "n": event["n"]})

    return ProtocolTypeRouter(
        {
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(
                    URLRouter([path("ws/rooms/<str:campaign_id>/", BenchRoomConsumer.as_asgi())])
                )
            )
        }
    )


def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Command(BaseCommand):
    help = "Measure room fan-out latency (p50/p99) against a raw channel-layer group_send."

    def add_arguments(self, parser):
        parser.add_argument("--rooms", type=int, default=20)
        parser.add_argument("--clients-per-room", type=int, default=10)
        parser.add_argument("--messages", type=int, default=50)
        parser.add_argument(
            "--capacity", type=int, default=None, help="channel-layer capacity for this run"
        )

    def handle(self, *args, rooms, clients_per_room, messages, capacity, **options):
        from channels.layers import InMemoryChannelLayer, get_channel_layer

        if capacity:
            os.environ[CAPACITY_ENV] = str(capacity)
        _apply_capacity()
        if get_channel_layer() is None or isinstance(get_channel_layer(), InMemoryChannelLayer):
            raise CommandError("bench_fanout needs the Redis channel layer: set REDIS_URL.")
        tag = uuid.uuid4().hex[:8]
        setups = self._setup(tag, rooms, clients_per_room)
        port = _free_port()
        server = subprocess.Popen(
            [
                sys.executable, "-m", "uvicorn", "--factory",
                "apps.rooms.management.commands.bench_fanout:bench_application",
                "--host", "127.0.0.1", "--port", str(port),
                "--log-level", "warning", "--lifespan", "off", "--ws", "websockets-sansio",
            ],
            env={**os.environ},
        )  # fmt: skip
        try:
            self._wait_for_port(port, server)
            raw, live = asyncio.run(self._run(setups, messages, port))
        finally:
            server.terminate()
            server.wait(10)
            self._teardown(tag)
        p50r, p99r = pct(raw, 50), pct(raw, 99)
        p50, p99 = pct(live, 50), pct(live, 99)
        layer_cfg = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
        self.stdout.write(
            f"deliveries: {len(live)} live, {len(raw)} raw (rooms={rooms} "
            f"clients/room={clients_per_room} messages/room={messages} "
            f"capacity={layer_cfg.get('capacity', 100)})\n"
            f"raw group_send  p50={p50r:.2f} ms  p99={p99r:.2f} ms"
            f"  mean={statistics.mean(raw):.2f} ms\n"
            f"room post->recv p50={p50:.2f} ms  p99={p99:.2f} ms"
            f"  mean={statistics.mean(live):.2f} ms\n"
            f"ratio p50 room/raw = {p50 / p50r:.2f}x  (target <= 3x; p99 target <= 100 ms)"
        )

    # --- fixtures --------------------------------------------------------------------------

    def _setup(self, tag, rooms, clients_per_room):
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.contrib.sessions.backends.db import SessionStore

        from apps.accounts.models import User
        from apps.campaigns.models import Campaign, CampaignMembership

        setups, self.session_keys = [], []
        for r in range(rooms):
            users = [
                User.objects.create_user(email=f"bench-{tag}-{r}-{c}@example.test", password=None)
                for c in range(clients_per_room)
            ]
            campaign = Campaign.objects.create(
                name=f"bench {tag} {r}", system_id="dnd5e", owner=users[0]
            )
            memberships, cookies = [], []
            for i, user in enumerate(users):
                m = CampaignMembership.objects.create(
                    campaign=campaign,
                    user=user,
                    role=CampaignMembership.Role.OWNER
                    if i == 0
                    else CampaignMembership.Role.PLAYER,
                )
                m.campaign, m.user = campaign, user
                memberships.append(m)
                session = SessionStore()
                session[SESSION_KEY] = str(user.pk)
                session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
                session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                session.create()
                self.session_keys.append(session.session_key)
                cookies.append(f"{settings.SESSION_COOKIE_NAME}={session.session_key}")
            setups.append((campaign, memberships, cookies))
        return setups

    def _teardown(self, tag):
        from django.contrib.sessions.models import Session

        from apps.accounts.models import User
        from apps.campaigns.models import Campaign
        from apps.projections.models import OutboxEvent

        campaigns = list(
            Campaign.objects.filter(name__startswith=f"bench {tag}").values_list("id", flat=True)
        )
        OutboxEvent.objects.filter(campaign_id__in=campaigns).delete()
        Campaign.objects.filter(id__in=campaigns).delete()
        User.objects.filter(email__startswith=f"bench-{tag}-").delete()
        Session.objects.filter(session_key__in=self.session_keys).delete()

    @staticmethod
    def _wait_for_port(port, server):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise CommandError("the uvicorn bench server exited during startup")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise CommandError("the uvicorn bench server did not start within 30 s")

    # --- the run ---------------------------------------------------------------------------

    async def _run(self, setups, messages, port):
        from channels.layers import get_channel_layer
        from websockets.asyncio.client import connect

        from apps.projections.groups import room_group

        layer = get_channel_layer()
        # (campaign id, kind, key) -> receipt times; the waiter for it and how many to expect.
        got: dict[tuple, list[float]] = defaultdict(list)
        waiting: dict[tuple, tuple[asyncio.Event, int]] = {}

        def record(key):
            now = time.perf_counter()
            got[key].append(now)
            w = waiting.get(key)
            if w is not None and len(got[key]) >= w[1]:
                w[0].set()

        async def reader(ws, cid, ready):
            async for text in ws:
                frame = json.loads(text)
                if frame["type"] == "caught_up":
                    ready.set()
                elif frame["type"] == "raw":
                    record((cid, "raw", frame["n"]))
                elif frame["type"] == "entry":
                    record((cid, "live", frame["entry"]["sequence"]))

        sockets, readers = [], []
        origin = f"http://127.0.0.1:{port}"
        for campaign, _memberships, cookies in setups:
            cid = str(campaign.id)
            for cookie in cookies:
                ws = await connect(
                    f"ws://127.0.0.1:{port}/ws/rooms/{cid}/?after=0",
                    additional_headers={"Cookie": cookie, "Origin": origin},
                    max_queue=None,
                )
                ready = asyncio.Event()
                readers.append(asyncio.create_task(reader(ws, cid, ready)))
                await asyncio.wait_for(ready.wait(), WAIT)
                sockets.append(ws)

        loop = asyncio.get_running_loop()
        pool = ThreadPoolExecutor(max_workers=len(setups), thread_name_prefix="bench-post")

        async def expect(key, n, start: float) -> list[float]:
            event = asyncio.Event()
            waiting[key] = (event, n)
            if len(got[key]) >= n:
                event.set()
            try:
                await asyncio.wait_for(event.wait(), WAIT)
            except TimeoutError:
                raise CommandError(
                    f"{key}: {len(got[key])} of {n} clients received within {WAIT:.0f} s"
                ) from None
            return [(t - start) * 1000 for t in got[key][:n]]

        async def one_room(campaign, memberships, n_clients):
            cid = str(campaign.id)
            raw, live = [], []
            for i in range(messages):
                start = time.perf_counter()
                await layer.group_send(room_group(cid), {"type": "bench.raw", "n": i})
                raw.extend(await expect((cid, "raw", i), n_clients, start))
                waiter = asyncio.create_task(expect((cid, "live", i + 1), n_clients, 0.0))
                start = await loop.run_in_executor(pool, self._post, memberships[i % 2], i)
                live.extend(t - start * 1000 for t in await waiter)
            return raw, live

        try:
            results = await asyncio.gather(
                *(one_room(c, m, len(cookies)) for c, m, cookies in setups)
            )
        finally:
            for ws in sockets:
                await ws.close()
            for task in readers:
                task.cancel()
            pool.shutdown()
        raw = [x for r, _ in results for x in r]
        live = [x for _, lv in results for x in lv]
        return raw, live

    @staticmethod
    def _post(membership, i) -> float:
        from apps.rooms.services import room_message_post

        close_old_connections()
        start = time.perf_counter()
        room_message_post(
            membership=membership, body=f"bench {i}", mode="chat", client_message_id=f"bench-{i}"
        )
        return start
