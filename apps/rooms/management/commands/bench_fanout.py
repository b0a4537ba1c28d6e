"""Fan-out latency: post -> receipt by every websocket client, next to a raw group_send.

The shape of production, in three processes:
- a uvicorn server (the real websocket stack: origin check, session auth, RoomConsumer) holds
  the sockets;
- a client process (`apps.rooms.management.bench_clients`) holds the real websocket clients
  (session cookies, Origin), as browsers would, and stamps every receipt with perf_counter;
- this process posts through the service from a web-side thread pool, so publication goes
  through the outbox, the after-commit hook and the process publisher. The baseline is a bare
  channel-layer group_send from here to the same sockets, interleaved in the same run.
Each room runs a closed loop: raw i, then post i, each once every client of the room has the
previous one (the client process reports completions over its stdout); --rate also paces it,
so the load is offered rather than as fast as it goes. perf_counter is
CLOCK_MONOTONIC on Linux, so send and receipt stamps from different processes compare.
Every process runs with DEBUG off, as production does.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections
from django.utils import timezone

from apps.core.benchmarks import cpu_delta, cpu_snapshot, pct, postgres_backend_pids

CAPACITY_ENV = "SAGASMITH_BENCH_CHANNEL_CAPACITY"
CLIENTS_MODULE = "apps.rooms.management.bench_clients"
RAW_WAIT = 10.0  # a raw frame has no recovery: later than this it counts as lost
STOP_WAIT = 20.0


def _apply_capacity() -> None:
    """Let a run try a core-layer capacity without editing settings (both Django processes)."""
    capacity = os.environ.get(CAPACITY_ENV)
    if capacity and settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith(".RedisChannelLayer"):
        from channels.layers import channel_layers

        settings.CHANNEL_LAYERS["default"].setdefault("CONFIG", {})["capacity"] = int(capacity)
        channel_layers.backends = {}


async def _serving(scope, receive, send):
    """The bench server's one HTTP answer, which tells the bench it is serving: its inherited
    socket accepts connections before the application is loaded."""
    await send({"type": "http.response.start", "status": 204, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def bench_application():
    """uvicorn --factory target: the production websocket stack with the bench consumer.

    This module is imported before Django is set up there, hence the imports in here.
    """
    import django

    django.setup()
    settings.DEBUG = False  # DJANGO_DEBUG=false already; also for settings that hard-code it
    _apply_capacity()
    from channels.routing import ProtocolTypeRouter, URLRouter
    from channels.security.websocket import AllowedHostsOriginValidator
    from django.urls import path

    from apps.accounts.middleware import WebsocketAuthMiddleware
    from apps.rooms.consumers import RoomConsumer

    class BenchRoomConsumer(RoomConsumer):
        async def bench_raw(self, event):
            # The baseline: the same sockets and groups, a bare forward, no outbox or filter.
            await self.send_json({"type": "raw", "n": event["n"]})

    return ProtocolTypeRouter(
        {
            "http": _serving,
            "websocket": AllowedHostsOriginValidator(
                WebsocketAuthMiddleware(
                    URLRouter([path("ws/rooms/<str:campaign_id>/", BenchRoomConsumer.as_asgi())])
                )
            ),
        }
    )


def _stats(values) -> str:
    if not values:
        return "p50=   n/a     p99=   n/a     mean=   n/a"
    return (
        f"p50={pct(values, 50):7.2f} ms  p99={pct(values, 99):7.2f} ms"
        f"  mean={statistics.mean(values):7.2f} ms  max={max(values):8.2f} ms"
    )


class Completions:
    """Futures for "every client of room r has frame (kind, n)", fed by the client process."""

    def __init__(self) -> None:
        self.futures: dict[tuple, asyncio.Future] = {}
        self.failure: str | None = None
        self.late = 0

    def future(self, key: tuple) -> asyncio.Future:
        # Made before the send: a receipt can be reported before the send call returns.
        fut = self.futures.get(key)
        if fut is None:
            fut = self.futures[key] = asyncio.get_running_loop().create_future()
            if self.failure:
                fut.set_exception(CommandError(self.failure))
        return fut

    def complete(self, key: tuple, times: list[float]) -> None:
        fut = self.futures.get(key)
        if fut is None:
            self.late += 1  # its waiter timed out and gave up
        elif not fut.done():
            fut.set_result(times)

    def fail(self, text: str) -> None:
        self.failure = text
        for fut in self.futures.values():
            if not fut.done():
                fut.set_exception(CommandError(text))

    async def wait(self, key: tuple, timeout: float) -> list[float] | None:
        try:
            return await asyncio.wait_for(asyncio.shield(self.future(key)), timeout)
        except TimeoutError:
            return None
        finally:
            fut = self.futures.pop(key, None)
            if fut is not None and fut.done() and not fut.cancelled():
                fut.exception()  # retrieved: no "never retrieved" noise after a failure


class Command(BaseCommand):
    help = "Measure room fan-out latency (p50/p99) against a raw channel-layer group_send."

    def add_arguments(self, parser):
        parser.add_argument("--rooms", type=int, default=20)
        parser.add_argument("--clients-per-room", type=int, default=10)
        parser.add_argument("--messages", type=int, default=50)
        parser.add_argument(
            "--rate",
            type=float,
            default=0.0,
            help="posts per second per room (0: closed loop, each post once the last arrived)",
        )
        parser.add_argument(
            "--capacity", type=int, default=None, help="core-layer channel capacity for this run"
        )

    def handle(self, *args, rooms, clients_per_room, messages, rate, capacity, **options):
        from channels.layers import InMemoryChannelLayer, get_channel_layer

        from apps.projections.dispatch import publisher
        from domain_servers.common.testing import listening_socket, spawn_on_socket

        # Production runs DEBUG=False; with DEBUG on, every query is recorded in this process.
        settings.DEBUG = False
        env = {**os.environ, "DJANGO_DEBUG": "false"}
        if capacity:
            env[CAPACITY_ENV] = os.environ[CAPACITY_ENV] = str(capacity)
        _apply_capacity()
        if get_channel_layer() is None or isinstance(get_channel_layer(), InMemoryChannelLayer):
            raise CommandError("bench_fanout needs the Redis channel layer: set REDIS_URL.")
        tag = uuid.uuid4().hex[:8]
        setups = self._setup(tag, rooms, clients_per_room)
        # The server inherits a socket bound here: no other process can take the port between
        # its choice and the server's start.
        listener = listening_socket()
        port = listener.getsockname()[1]
        server_log = tempfile.TemporaryFile("w+")
        server = spawn_on_socket(
            [
                sys.executable, "-m", "uvicorn", "--factory",
                "apps.rooms.management.commands.bench_fanout:bench_application",
                "--log-level", "warning", "--lifespan", "off", "--ws", "websockets-sansio",
            ],
            listener, env=env, stdout=server_log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        load_before = os.getloadavg()
        result = None
        try:
            self._wait_until_serving(port, server)
            result = asyncio.run(self._run(setups, messages, rate, port, env, server))
        finally:
            stopping = time.perf_counter()
            server.terminate()
            try:
                server.wait(10)
                self.server_stop = f"stopped in {time.perf_counter() - stopping:.1f} s"
            except subprocess.TimeoutExpired:
                server.kill()  # a graceful shutdown waits on closing sockets; results matter more
                server.wait(10)
                self.server_stop = "killed: it had not stopped 10 s after terminate"
            publisher.flush_marks()
            self._teardown(tag)
            if result is None:
                self._report_server_log(server_log)  # the run failed: the server may say why
        self._report(result, rooms, clients_per_room, messages, rate, load_before)
        self._report_server_log(server_log)
        if result["lost_live"]:
            raise CommandError(f"{result['lost_live']} posted messages never reached every client")

    # --- report ------------------------------------------------------------------------------

    def _report(self, r, rooms, clients_per_room, messages, rate, load_before):
        raw, live = r["raw"], r["live"]
        layer = settings.CHANNEL_LAYERS["default"]
        backend = layer["BACKEND"].rpartition(".")[2]
        if backend == "RedisChannelLayer":
            backend += f" capacity={layer.get('CONFIG', {}).get('capacity', 100)}"
        p50r, p50 = pct(raw, 50), pct(live, 50)
        p99 = pct(live, 99)
        ratio = p50 / p50r if raw and live else float("nan")
        posts = rooms * messages
        offered = f"{rooms * rate:.1f} posts/s ({rate:g}/s per room)" if rate else "closed loop"
        cpu = r["cpu"]
        wall = r["elapsed"]
        closed = r["closed"]
        self.stdout.write(
            f"layer {backend}; rooms={rooms} clients/room={clients_per_room} "
            f"messages/room={messages}; DEBUG off in bench and server (clients import no Django)\n"
            f"deliveries: {len(live)} live, {len(raw)} raw (expected {posts * clients_per_room}"
            f" each); lost: {r['lost_live']} posts, {r['lost_raw']} raw; late after timeout: "
            f"{r['late']}; duplicates: {closed.get('duplicates', '?')}; "
            f"incomplete: {len(closed.get('incomplete', {}))}\n"
            f"raw group_send  {_stats(raw)}\n"
            f"room post->recv {_stats(live)}\n"
            f"ratio p50 room/raw = {ratio:.2f}x (target <= 3x: {'met' if ratio <= 3 else 'MISSED'})"
            f"; room p99 {p99:.1f} ms (target <= 100 ms: {'met' if p99 <= 100 else 'MISSED'})\n"
            f"rate: offered {offered}; achieved {posts / wall:.1f} posts/s + "
            f"{posts / wall:.1f} raw sends/s, {(len(live) + len(raw)) / wall:.0f} deliveries/s; "
            f"run time {wall:.2f} s\n"
            f"cpu during the run (s): bench {cpu['bench']:.2f}, server {cpu['server']:.2f}, "
            f"clients {cpu['clients']:.2f}, postgres backends {cpu.get('postgres', 0.0):.2f}; "
            f"load average {load_before[0]:.2f} -> {os.getloadavg()[0]:.2f} on "
            f"{os.cpu_count()} cpus\n"
            f"shutdown: clients closed {closed.get('close_seconds', '?')} s; server left "
            f"{r['presence_left']} presence rows after {r['disconnect_seconds']:.1f} s; "
            f"server {self.server_stop}"
        )

    def _report_server_log(self, log):
        log.seek(0)
        lines = [line.rstrip() for line in log if line.strip()]
        log.close()
        tracebacks = sum("Traceback (most recent call last)" in line for line in lines)
        # Exception lines and log records, counted once each: a storm reads as one line.
        notable = Counter(
            re.sub(r"^\d{4}-\d\d-\d\d \S+ ", "", line)[:160]  # a record's timestamp
            for line in lines
            if not line.startswith((" ", "Traceback"))
        )
        self.stdout.write(
            f"server log: {len(lines)} lines, {tracebacks} tracebacks"
            + "".join(f"\n  {n} x {text}" for text, n in notable.most_common(8))
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
                User.objects.create_user(
                    email=f"bench-{tag}-{r}-{c}@example.test",
                    password=None,
                    # The room's socket closes on anyone with terms left to accept.
                    terms_version=settings.SAGASMITH_TERMS_VERSION,
                    privacy_version=settings.SAGASMITH_PRIVACY_VERSION,
                    terms_accepted_at=timezone.now(),
                )
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
    def _wait_until_serving(port, server):
        from domain_servers.common.testing import wait_until_serving

        try:
            wait_until_serving(server, port, timeout=30)
        except RuntimeError as exc:
            raise CommandError(f"the uvicorn bench server did not start: {exc}") from exc

    # --- the run ---------------------------------------------------------------------------

    async def _run(self, setups, messages, rate, port, env, server):
        from channels.layers import get_channel_layer

        from apps.projections.groups import room_group
        from apps.rooms.consumers import heartbeat_seconds

        layer = get_channel_layer()
        # A lost wake-up is the product's to recover (next entry or heartbeat catch-up): wait
        # past one heartbeat so such a recovery shows as a latency, not as a loss.
        live_wait = heartbeat_seconds() + 10.0
        loop = asyncio.get_running_loop()
        pool = ThreadPoolExecutor(max_workers=len(setups), thread_name_prefix="bench-post")
        done = Completions()
        origin = f"http://127.0.0.1:{port}"
        config = {
            "url": f"ws://127.0.0.1:{port}",
            "origin": origin,
            "rooms": [[str(c.id), cookies] for c, _m, cookies in setups],
        }
        clients = await asyncio.create_subprocess_exec(
            sys.executable, "-m", CLIENTS_MODULE,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env,
            limit=2**24,
        )  # fmt: skip
        clients.stdin.write(json.dumps(config).encode() + b"\n")
        await clients.stdin.drain()
        first = json.loads(await clients.stdout.readline() or b'{"error": "exited"}')
        if "ready" not in first:
            await clients.wait()
            raise CommandError(f"the client process failed: {first.get('error')}")
        closed: dict = {}

        async def read_reports():
            while line := await clients.stdout.readline():
                report = json.loads(line)
                if isinstance(report, list):
                    room, kind, n, times = report
                    done.complete((room, kind, n), times)
                elif "error" in report:
                    done.fail(f"client process: {report['error']}")
                elif "closed" in report:
                    closed.update(report["closed"])
            done.fail("the client process exited")

        reports = asyncio.create_task(read_reports())
        lost = {"raw": 0, "live": 0}

        async def one_room(r, campaign, memberships):
            group = room_group(campaign.id)
            raw, live = [], []
            # Paced rooms start out of phase, so the offered load is spread, not one burst.
            began = time.perf_counter() + r / (rate * len(setups)) if rate else 0.0
            for i in range(messages):
                if rate:
                    await asyncio.sleep(max(0.0, began + i / rate - time.perf_counter()))
                key = (r, "raw", i)
                done.future(key)
                start = time.perf_counter()
                await layer.group_send(group, {"type": "bench.raw", "n": i})
                times = await done.wait(key, RAW_WAIT)
                if times is None:
                    lost["raw"] += 1
                else:
                    raw.extend((t - start) * 1000 for t in times)
                key = (r, "live", i + 1)  # the room's sequence: this room posts nothing else
                done.future(key)
                start = await loop.run_in_executor(pool, self._post, memberships[i % 2], i)
                times = await done.wait(key, live_wait)
                if times is None:
                    lost["live"] += 1
                else:
                    live.extend((t - start) * 1000 for t in times)
            return raw, live

        pids = await loop.run_in_executor(pool, postgres_backend_pids)
        processes = {"server": server.pid, "clients": clients.pid}
        cpu0 = cpu_snapshot(processes, pids)
        began = time.perf_counter()
        try:
            results = await asyncio.gather(
                *(one_room(r, c, m) for r, (c, m, _cookies) in enumerate(setups))
            )
            elapsed = time.perf_counter() - began
            pids = await loop.run_in_executor(pool, postgres_backend_pids)
            cpu1 = cpu_snapshot(processes, pids)
        finally:
            clients.stdin.close()  # EOF: the clients disconnect all at once
            try:
                await asyncio.wait_for(clients.wait(), STOP_WAIT)
            except TimeoutError:
                clients.kill()
                await clients.wait()
            await asyncio.wait_for(reports, STOP_WAIT)
        # Let the server finish its disconnect handlers (group_discard, presence) before it
        # is stopped, so errors there show in its log.
        ids = [c.id for c, _m, _k in setups]
        stop_began = time.perf_counter()
        while (left := await loop.run_in_executor(pool, self._presence_left, ids)) and (
            time.perf_counter() - stop_began < STOP_WAIT
        ):
            await asyncio.sleep(0.2)
        disconnect_seconds = time.perf_counter() - stop_began
        pool.shutdown()
        return {
            "raw": [x for raw, _live in results for x in raw],
            "live": [x for _raw, live in results for x in live],
            "lost_raw": lost["raw"],
            "lost_live": lost["live"],
            "late": done.late,
            "elapsed": elapsed,
            "cpu": cpu_delta(cpu0, cpu1),
            "closed": closed,
            "presence_left": left,
            "disconnect_seconds": disconnect_seconds,
        }

    @staticmethod
    def _presence_left(campaign_ids) -> int:
        from apps.rooms.models import Presence

        close_old_connections()
        return Presence.objects.filter(room__campaign_id__in=campaign_ids).count()

    @staticmethod
    def _post(membership, i) -> float:
        from apps.rooms.services import room_message_post

        close_old_connections()  # what a request does first
        start = time.perf_counter()
        try:
            room_message_post(
                membership=membership, body=f"bench {i}", mode="chat",
                client_message_id=f"bench-{i}",
            )  # fmt: skip
        finally:
            close_old_connections()  # and last: the connection goes back to the pool
        return start
