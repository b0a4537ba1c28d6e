"""Turn latency: POST an action -> the settled narration on a websocket, next to its floor.

What runs (all started and stopped by this command):
- a dnd5e domain server process (HTTP on a free loopback port, temp SQLite, temp delegation
  keys), with SAGASMITH_DOMAINS pointed at it here and in the worker;
- a real Celery worker subprocess on the Redis broker (`-P threads` by default) running
  `turns.run_turn` exactly as in production;
- a uvicorn subprocess serving sagasmith_web.asgi:application (HTTP API and websockets,
  lifespan on), as production runs it;
- per room one websocket client (the player's session cookie, an allowed Origin) and an HTTP
  client posting `POST /api/campaigns/<id>/room/actions` with "roll 1d20" (one dice_roll).

Latency is from just before the POST is sent to the `turn.narration` entry for that job arriving
on the room's socket. The floor is measured in the same run, interleaved with the turns (one floor
sample after each turn, under the same load): N raw PostgreSQL transactions (N = the write
transactions one turn makes, counted on a calibration turn), one bare MCP call (`campaign_get`
through `domain_call`) and one raw channels-redis `group_send` -> `receive`.

By default the load is a closed loop (one turn in flight per room, the next posted as soon as the
last settles), which measures latency at saturation. `--rate R` paces turn starts instead (open
loop, rooms in turn), which measures latency at a given arrival rate below saturation.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import statistics
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections, connection, transaction
from django.test import override_settings
from django.utils import timezone

from apps.core.benchmarks import cpu_delta, cpu_snapshot, pct, postgres_backend_pids
from apps.turns.bench_support import (
    CeleryWorker,
    DomainServer,
    TurnCounter,
    UvicornProcess,
    bench_data_delete,
    worker_env,
)

TEXT = "roll 1d20"
TURN_WAIT = 30.0  # one turn, POST to narration
SETTLE_EVENTS = ("turn.narration", "turn.outcome")


@dataclass
class BenchRoom:
    index: int
    campaign: Any
    gm: Any
    player: Any
    cookie: str
    csrf: str


@dataclass
class Results:
    turns: list[float] = field(default_factory=list)
    post: list[float] = field(default_factory=list)
    db: list[float] = field(default_factory=list)
    mcp: list[float] = field(default_factory=list)
    group_send: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    # CPU seconds of the measured phase by process ("bench" is this one, floor included)
    cpu: dict[str, float] = field(default_factory=dict)
    # job id -> (wall time at POST start, wall time at narration receipt)
    wall: dict[str, tuple[float, float]] = field(default_factory=dict)


class Command(BaseCommand):
    help = "Measure room-turn latency (POST -> narration on a websocket) against its floor."

    def add_arguments(self, parser):
        parser.add_argument("--rooms", type=int, default=10)
        parser.add_argument("--turns", type=int, default=100, help="measured turns in all")
        parser.add_argument(
            "--concurrency", type=int, default=0,
            help="closed loop: turns in flight at once (default: one per room)",
        )  # fmt: skip
        parser.add_argument(
            "--rate", type=float, default=0.0, metavar="TURNS_PER_S",
            help="paced (open loop): start turns at this rate in all, rooms in turn, whether or "
                 "not earlier ones have settled (default: closed loop)",
        )  # fmt: skip
        parser.add_argument("--pool", choices=["threads", "prefork", "solo"], default="threads")
        parser.add_argument("--worker-concurrency", type=int, default=8)  # as in production
        parser.add_argument(
            "--profile", type=int, default=0, metavar="N",
            help="also cProfile N eager in-process turns (test Client POST + task) and print it",
        )  # fmt: skip
        parser.add_argument("--keep-logs", action="store_true", help="keep the temp directory")

    def handle(self, *args, rooms, turns, concurrency, pool, worker_concurrency, keep_logs,
               profile=0, rate=0.0, **options):  # fmt: skip
        from channels.layers import get_channel_layer

        if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
            raise CommandError("bench_turns needs PostgreSQL: set DATABASE_URL=postgres://...")
        if (
            not getattr(settings, "REDIS_URL", "")
            or "redis" not in type(get_channel_layer()).__module__
        ):
            raise CommandError("bench_turns needs Redis (channel layer, broker): set REDIS_URL.")
        if rooms < 1 or turns < 1:
            raise CommandError("--rooms and --turns must be at least 1.")
        if rate < 0:
            raise CommandError("--rate must be positive (or 0 for the closed loop).")
        self.rate = rate
        concurrency = concurrency or rooms
        settings.DEBUG = False  # as in production (and in the subprocesses): no query log
        self.tag = uuid.uuid4().hex[:8]
        self.base = Path(tempfile.mkdtemp(prefix=f"bench-turns-{self.tag}-"))
        self.session_keys: list[str] = []
        self.floor_table = f"bench_turns_floor_{self.tag}"
        cleanups: list[tuple[str, Any]] = []
        try:
            key_dir = self.base / "keys"
            keys = override_settings(
                SAGASMITH_DELEGATION_KEY_DIR=str(key_dir), SAGASMITH_DELEGATION_PRIVATE_KEYS=""
            )
            keys.enable()
            cleanups.append(("settings", keys.disable))
            from apps.domains.keys import ensure_local_keys

            jwks = ensure_local_keys()
            domain = DomainServer(base=self.base, jwks=jwks)
            cleanups.append(("domain server", domain.stop))
            domains = override_settings(SAGASMITH_DOMAINS=domain.domains_setting())
            domains.enable()
            cleanups.append(("settings", domains.disable))
            from apps.domains.client import domain_connections_close

            cleanups.append(("domain connections", domain_connections_close))
            cleanups.append(("data", self._teardown))
            self.stdout.write(f"setting up {rooms} rooms on {domain.url} ...")
            bench_rooms = self._setup(rooms)
            self._floor_table_create()
            calibration = self._calibrate(bench_rooms[0])
            if options.get("verbosity", 1) >= 2:
                self.stdout.write("calibration turn SQL, in order:")
                self.stdout.write("\n".join(f"  {i:>3} {q}" for i, q in enumerate(calibration.sql)))
            if profile:
                self._profile(bench_rooms[0], profile)
            env = worker_env(
                domains=domain.domains_setting(), domain_port=domain.port, key_dir=str(key_dir)
            )
            worker = CeleryWorker(
                env=env,
                pool=pool, concurrency=worker_concurrency, log=self.base / "worker.log",
            )  # fmt: skip
            cleanups.append(("celery worker", worker.stop))
            server = UvicornProcess(env=env, log=self.base / "uvicorn.log")
            cleanups.append(("uvicorn", server.stop))
            n_tx = max(1, calibration.write_transactions)
            processes = {
                "worker": worker.process.pid, "web": server.process.pid,
                "domain": domain.process.pid,
            }  # fmt: skip
            results = asyncio.run(
                self._run(bench_rooms, turns, concurrency, server.port, n_tx, worker, processes)
            )
            breakdown = self._breakdown(results)
            self._report(
                results, breakdown, calibration, n_tx,
                rooms=rooms, turns=turns, concurrency=concurrency, pool=pool,
                worker_concurrency=worker_concurrency,
            )  # fmt: skip
        finally:
            for name, fn in reversed(cleanups):
                try:
                    fn()
                except Exception as exc:  # noqa: BLE001 - clean up the rest regardless
                    self.stderr.write(f"cleanup of {name} failed: {type(exc).__name__}: {exc}")
            if keep_logs:
                self.stdout.write(f"logs kept in {self.base}")
            else:
                shutil.rmtree(self.base, ignore_errors=True)

    # --- fixtures ------------------------------------------------------------------------------

    def _user(self, label: str):
        from apps.accounts.models import User

        return User.objects.create_user(
            email=f"bench-turns-{self.tag}-{label}@example.test",
            password=None,
            display_name=f"Bench {label}",
            terms_version=settings.SAGASMITH_TERMS_VERSION,
            privacy_version=settings.SAGASMITH_PRIVACY_VERSION,
            terms_accepted_at=timezone.now(),
        )

    def _session_cookie(self, user) -> str:
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.contrib.sessions.backends.db import SessionStore

        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session["_touch"] = time.time() + 3600  # no UserSession write on the measured posts
        session.create()
        self.session_keys.append(session.session_key)
        return session.session_key

    def _setup(self, rooms: int) -> list[BenchRoom]:
        from apps.campaigns.services.campaigns import campaign_create
        from apps.campaigns.services.invites import invite_accept, invite_create
        from apps.campaigns.services.membership import join_request_decide
        from apps.quota.services import quota_account_for, quota_grant
        from apps.rooms.services import room_get_or_create

        out = []
        for r in range(rooms):
            gm, player = self._user(f"{r}-gm"), self._user(f"{r}-player")
            campaign = campaign_create(
                owner=gm, name=f"bench turns {self.tag} {r}", system_id="dnd5e",
                idempotency_key=f"bench-{self.tag}-{r}",
            )  # fmt: skip
            # Membership through the real flow, which grants it on the domain (member_grant).
            _invite, token = invite_create(
                campaign=campaign, actor=gm, mode="request", expires_in=timedelta(hours=1),
                max_uses=1, role="player",
            )  # fmt: skip
            outcome = invite_accept(token=token, user=player)
            join_request_decide(join_request=outcome.join_request, actor=gm, decision="approve")
            room_get_or_create(campaign=campaign)
            campaign.refresh_from_db()
            quota_grant(
                account=quota_account_for(user=player), amount=1_000_000, source="system",
                note=f"bench_turns {self.tag}",
            )  # fmt: skip
            session_key = self._session_cookie(player)
            csrf = secrets.token_hex(16)  # an unmasked 32-character secret: cookie == header
            cookie = (
                f"{settings.SESSION_COOKIE_NAME}={session_key}; {settings.CSRF_COOKIE_NAME}={csrf}"
            )
            out.append(BenchRoom(r, campaign, gm, player, cookie, csrf))
        return out

    def _floor_table_create(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                f"CREATE TABLE {self.floor_table} (id bigserial PRIMARY KEY, "
                "job text NOT NULL, step int NOT NULL, at timestamptz NOT NULL DEFAULT now())"
            )

    def _teardown(self) -> None:
        close_old_connections()
        bench_data_delete(self.tag, self.session_keys)

    # --- calibration -----------------------------------------------------------------------

    def _profile(self, room: BenchRoom, n: int) -> None:
        import cProfile
        import io
        import pstats

        profiler = cProfile.Profile()
        start = time.perf_counter()
        for i in range(n):
            self._calibrate(room, key=f"profile-{i}", profiler=profiler)
        elapsed = (time.perf_counter() - start) * 1000 / n
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(45)
        stats.sort_stats("tottime").print_stats(25)
        self.stdout.write(f"cProfile of {n} eager in-process turns ({elapsed:.1f} ms/turn wall, "
                          f"profiler overhead included):\n{out.getvalue()}")  # fmt: skip

    def _calibrate(self, room: BenchRoom, key: str = "calibration", profiler=None) -> TurnCounter:
        """One turn through the real endpoint (Django's test Client) with the task run eagerly
        on this thread, counting its write transactions, statements and domain calls."""
        from django.test import Client

        from sagasmith_web.celery import app as celery_app

        client = Client(HTTP_HOST="127.0.0.1")
        client.cookies[settings.SESSION_COOKIE_NAME] = self.session_keys[room.index]
        counter = TurnCounter()
        celery_app.conf.task_always_eager = True
        try:
            with counter.installed():
                if profiler is not None:
                    profiler.enable()
                response = client.post(
                    f"/api/campaigns/{room.campaign.id}/room/actions",
                    data={"body": TEXT}, content_type="application/json",
                    headers={"Idempotency-Key": f"bench-{self.tag}-{key}"},
                )  # fmt: skip
                if profiler is not None:
                    profiler.disable()
        finally:
            celery_app.conf.task_always_eager = False
        if response.status_code != 202:
            raise CommandError(f"calibration POST: HTTP {response.status_code}: {response.content}")
        from apps.turns.models import RoomTurnJob

        job = RoomTurnJob.objects.get(pk=response.json()["id"])
        if job.status != RoomTurnJob.Status.SUCCEEDED:
            raise CommandError(f"calibration turn ended {job.status}: {job.error_code} "
                               f"{job.error_message}")  # fmt: skip
        return counter

    # --- floor -------------------------------------------------------------------------------

    def _floor_db(self, n_tx: int, label: str) -> float:
        close_old_connections()
        start = time.perf_counter()
        for step in range(n_tx):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(
                    f"INSERT INTO {self.floor_table} (job, step) VALUES (%s, %s)",  # noqa: S608
                    [label, step],
                )
        return (time.perf_counter() - start) * 1000

    @staticmethod
    def _floor_mcp(room: BenchRoom) -> float:
        from apps.domains.client import domain_call

        start = time.perf_counter()
        domain_call(
            system_id="dnd5e", tool="campaign_get", arguments={}, requester=room.gm,
            campaign_id=room.campaign.domain_id,
        )  # fmt: skip
        return (time.perf_counter() - start) * 1000

    # --- the run -------------------------------------------------------------------------------

    async def _run(self, rooms, turns, concurrency, port, n_tx, worker, processes) -> Results:
        import httpx2
        from channels import DEFAULT_CHANNEL_LAYER
        from channels.layers import channel_layers
        from websockets.asyncio.client import connect

        loop = asyncio.get_running_loop()
        pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="bench-floor")
        # Its own layer instance for this loop, apart from whatever the settings cached.
        layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
        floor_channel = await layer.new_channel()
        floor_group = f"bench-turns-floor-{self.tag}"
        await layer.group_add(floor_group, floor_channel)
        floor_lock = asyncio.Lock()  # one reader of the floor channel at a time
        results = Results()
        # job id -> (perf_counter, wall time, event type) of the settled entry's arrival
        arrived: dict[str, tuple[float, float, str]] = {}
        waiters: dict[str, asyncio.Future] = {}
        origin = f"http://127.0.0.1:{port}"

        async def reader(ws, ready: asyncio.Event):
            async for text in ws:
                frame = json.loads(text)
                kind = frame.get("type")
                if kind == "caught_up":
                    ready.set()
                elif kind == "entry":
                    entry = frame["entry"]
                    if entry.get("event_type") in SETTLE_EVENTS:
                        job_id = (entry.get("data") or {}).get("job_id")
                        if job_id and job_id not in arrived:
                            arrived[job_id] = (time.perf_counter(), time.time(),
                                               entry["event_type"])  # fmt: skip
                            waiter = waiters.pop(job_id, None)
                            if waiter is not None and not waiter.done():
                                waiter.set_result(None)

        sockets, readers = [], []
        http = httpx2.AsyncClient(base_url=origin, timeout=httpx2.Timeout(TURN_WAIT))
        try:
            for room in rooms:
                ws = await connect(
                    f"ws://127.0.0.1:{port}/ws/rooms/{room.campaign.id}/?after=0",
                    additional_headers={"Cookie": room.cookie, "Origin": origin},
                    max_queue=None,
                )
                ready = asyncio.Event()
                readers.append(asyncio.create_task(reader(ws, ready)))
                await asyncio.wait_for(ready.wait(), TURN_WAIT)
                sockets.append(ws)

            counter = iter(range(10**9))

            async def turn(room: BenchRoom) -> tuple[str, float, float, float] | None:
                """Returns (job id, POST ms, POST->narration ms, wall time at start)."""
                n = next(counter)
                wall = time.time()
                start = time.perf_counter()
                response = await http.post(
                    f"/api/campaigns/{room.campaign.id}/room/actions",
                    json={"body": TEXT},
                    headers={
                        "Cookie": room.cookie, "X-CSRFToken": room.csrf,
                        "Idempotency-Key": f"bench-{self.tag}-{n}",
                    },
                )  # fmt: skip
                posted = time.perf_counter()
                if response.status_code != 202:
                    results.failures.append(f"POST HTTP {response.status_code}: {response.text}")
                    return None
                job_id = response.json()["id"]
                if job_id not in arrived:
                    waiter = waiters[job_id] = loop.create_future()
                    try:
                        await asyncio.wait_for(waiter, TURN_WAIT)
                    except TimeoutError:
                        waiters.pop(job_id, None)
                        alive = "alive" if worker.alive() else "DEAD"
                        results.failures.append(
                            f"job {job_id}: no narration within {TURN_WAIT:.0f} s (worker {alive})"
                        )
                        return None
                at, at_wall, event_type = arrived[job_id]
                if event_type != "turn.narration":
                    results.failures.append(f"job {job_id}: ended with {event_type}")
                    return None
                results.wall[job_id] = (wall, at_wall)
                return job_id, (posted - start) * 1000, (at - start) * 1000, wall

            async def floor_sample(room: BenchRoom, label: str) -> None:
                db = await loop.run_in_executor(pool, self._floor_db, n_tx, label)
                mcp = await loop.run_in_executor(pool, self._floor_mcp, room)
                async with floor_lock:
                    start = time.perf_counter()
                    await layer.group_send(floor_group, {"type": "bench.floor", "label": label})
                    await asyncio.wait_for(layer.receive(floor_channel), TURN_WAIT)
                    sent = (time.perf_counter() - start) * 1000
                results.db.append(db)
                results.mcp.append(mcp)
                results.group_send.append(sent)
                results.floor.append(db + mcp + sent)

            # Warm-up: one unmeasured turn and floor sample per room (worker threads, database
            # and domain connections, first imports); also proves the worker consumes.
            self.stdout.write("warming up (one unmeasured turn per room) ...")
            warm = await asyncio.gather(*(turn(room) for room in rooms))
            if any(w is None for w in warm):
                raise CommandError("warm-up failed: " + "; ".join(results.failures[:5]))
            for room in rooms:
                await floor_sample(room, "warmup")
            results.db.clear(), results.mcp.clear(), results.group_send.clear()
            results.floor.clear(), results.wall.clear()

            gate = asyncio.Semaphore(concurrency)
            plan: dict[int, int] = defaultdict(int)
            for i in range(turns):
                plan[i % len(rooms)] += 1

            async def measured(room: BenchRoom, label: str) -> None:
                outcome = await turn(room)
                if outcome is not None:
                    job_id, posted, latency, _wall = outcome
                    results.turns.append(latency)
                    results.post.append(posted)
                await floor_sample(room, label)

            async def drive(room: BenchRoom, count: int) -> None:
                for i in range(count):
                    async with gate:
                        await measured(room, f"{room.index}:{i}")

            async def paced() -> None:
                start, running = loop.time(), []
                for i in range(turns):
                    room = rooms[i % len(rooms)]
                    await asyncio.sleep(max(0.0, start + i / self.rate - loop.time()))
                    running.append(asyncio.create_task(measured(room, f"{room.index}:{i}")))
                await asyncio.gather(*running)

            self.stdout.write(f"measuring {turns} turns ...")
            backends = await loop.run_in_executor(pool, postgres_backend_pids)
            cpu_before = cpu_snapshot(processes, backends)
            started = time.perf_counter()
            if self.rate:
                await paced()
            else:
                await asyncio.gather(*(drive(room, plan[room.index]) for room in rooms))
            self.elapsed = time.perf_counter() - started
            backends = await loop.run_in_executor(pool, postgres_backend_pids)
            results.cpu = cpu_delta(cpu_before, cpu_snapshot(processes, backends))
        finally:
            for ws in sockets:
                await ws.close()
            for task in readers:
                task.cancel()
            await http.aclose()
            await layer.group_discard(floor_group, floor_channel)
            pool.shutdown(wait=True)
        return results

    # --- where the time goes --------------------------------------------------------------------

    def _breakdown(self, results: Results) -> dict[str, list[float]]:
        """Per-turn stages from the rows' own timestamps (one clock: this machine)."""
        from apps.rooms.models import Message
        from apps.turns.models import Operation, RoomTurnJob

        close_old_connections()
        ids = list(results.wall)
        jobs = {str(j.pk): j for j in RoomTurnJob.objects.filter(pk__in=ids)}
        ops = defaultdict(list)
        for op in Operation.objects.filter(job_id__in=ids).order_by("step"):
            ops[str(op.job_id)].append(op)
        narration = {
            m.data.get("job_id"): m
            for m in Message.objects.filter(event_type="turn.narration", data__job_id__in=ids)
        }
        stages: dict[str, list[float]] = defaultdict(list)
        for job_id, (start, received) in results.wall.items():
            job, message = jobs.get(job_id), narration.get(job_id)
            job_ops = ops.get(job_id) or []
            if job is None or message is None or not job_ops or job.started_at is None:
                continue
            op = job_ops[0]
            points = [
                ("POST -> job row inserted", start, job.created_at.timestamp()),
                ("row inserted -> worker claimed", job.created_at.timestamp(),
                 job.started_at.timestamp()),
                ("claimed -> dice_roll dispatched", job.started_at.timestamp(),
                 op.created_at.timestamp()),
                ("dice_roll round trip + journal", op.created_at.timestamp(),
                 op.updated_at.timestamp()),
                ("journal -> publish tx begins", op.updated_at.timestamp(),
                 job.finished_at.timestamp()),
                ("publish tx body", job.finished_at.timestamp(), job.updated_at.timestamp()),
                ("commit -> narration on socket", job.updated_at.timestamp(), received),
            ]  # fmt: skip
            for name, a, b in points:
                stages[name].append((b - a) * 1000)
            stages["(message row written, in tx)"].append(
                (message.created_at.timestamp() - job.finished_at.timestamp()) * 1000
            )
        return stages

    # --- report ----------------------------------------------------------------------------------

    def _report(self, results, breakdown, calibration, n_tx, *, rooms, turns, concurrency, pool,
                worker_concurrency) -> None:  # fmt: skip
        def row(name, values):
            if not values:
                return f"{name:<44} {'0':>5} {'-':>9} {'-':>9} {'-':>9}"
            return (
                f"{name:<44} {len(values):>5} {pct(values, 50):>9.2f} {pct(values, 99):>9.2f}"
                f" {statistics.mean(values):>9.2f}"
            )

        calls = ", ".join(f"{k} x{v}" for k, v in sorted(calibration.domain_calls.items()))
        worker = f"Celery worker subprocess, -P {pool}" + (
            f" -c {worker_concurrency}" if pool != "solo" else ""
        )
        lines = [
            "",
            f"bench_turns: rooms={rooms} turns={turns} "
            + (
                f"paced at {self.rate:g} turns/s (open loop)"
                if self.rate
                else f"closed loop, {concurrency} in flight"
            )
            + f" threads(this process)={threading.active_count()}",
            "  POST: real HTTP endpoint POST /api/campaigns/<id>/room/actions via httpx2 against "
            "a uvicorn subprocess (sagasmith_web.asgi:application)",
            f"  worker: {worker} on the Redis broker; agent: scripted '{TEXT}' (dice_roll)",
            f"  channel layer: {settings.CHANNEL_LAYERS['default']['BACKEND']}",
            f"  calibration turn: {n_tx} write transactions, {calibration.statements} SQL "
            f"statements (submit + run + publish), domain calls: {calls}",
            f"  wall time of measured phase: {self.elapsed:.1f} s "
            f"({len(results.turns) / max(self.elapsed, 1e-9):.1f} turns/s)",
            "",
            f"{'metric (ms)':<44} {'n':>5} {'p50':>9} {'p99':>9} {'mean':>9}",
            row("turn: POST -> narration on websocket", results.turns),
            row("  of which POST -> 202 response", results.post),
            row(f"floor: {n_tx} raw DB transactions", results.db),
            row("floor: 1 MCP campaign_get (domain_call)", results.mcp),
            row("floor: 1 group_send -> receive", results.group_send),
            row("floor: sum per sample", results.floor),
        ]
        if results.turns and results.cpu:
            per_turn = {name: seconds * 1000 / len(results.turns)
                        for name, seconds in results.cpu.items()}  # fmt: skip
            lines += [
                "",
                "CPU per measured turn (ms; the bench's includes its floor sample and clients): "
                + ", ".join(f"{name} {ms:.1f}" for name, ms in per_turn.items())
                + f"; all {sum(per_turn.values()):.1f} on {os.cpu_count()} CPUs",
            ]
        if results.turns and results.floor:
            ratio = pct(results.turns, 50) / pct(results.floor, 50)
            p99 = pct(results.turns, 99)
            lines += [
                "",
                f"ratio p50(turn)/p50(floor) = {ratio:.2f}x (target <= 3x: "
                f"{'PASS' if ratio <= 3 else 'FAIL'});  p99(turn) = {p99:.1f} ms "
                f"(target <= 250 ms: "
                f"{'PASS' if p99 <= 250 else 'FAIL'})",
            ]
        if breakdown:
            lines += ["", "where the time goes (row timestamps; p50/p99 per stage):"]
            lines += [row(name, values) for name, values in breakdown.items()]
        if results.failures:
            lines += ["", f"failures: {len(results.failures)}"]
            lines += [f"  {f}" for f in results.failures[:10]]
        self.stdout.write("\n".join(lines))
