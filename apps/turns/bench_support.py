"""Helpers for `manage.py bench_turns`: the processes and threads a turn benchmark needs, and
the counters that size its floor. Nothing here is used by the product at run time."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone

DND5E_PLUGIN = "apps.domains.plugins.dnd5e.Dnd5ePlugin"
WRITE_PREFIXES = ("INSERT", "UPDATE", "DELETE")
# A statement with a data-modifying CTE (WITH x AS (UPDATE ...) INSERT ...) writes too.
WRITES_IN_CTE = re.compile(r"\bAS\s*\(\s*(INSERT|UPDATE|DELETE)\b|\)\s*(INSERT|UPDATE|DELETE)\b")


def stop_process(process: subprocess.Popen | None, timeout: float = 10) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout)


class DomainServer:
    """A dnd5e MCP server over HTTP on a free loopback port with a temp SQLite database."""

    def __init__(self, *, base: Path, jwks: Path) -> None:
        from domain_servers.common.testing import listening_socket, spawn_http_server

        listener = listening_socket()
        self.port = listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        log = base / "dnd5e.log"
        self.log = log.open("w")
        try:
            self.process = spawn_http_server(
                "domain_servers.dnd5e", f"sqlite:///{base / 'dnd5e.sqlite3'}", str(jwks), listener,
                stderr=self.log,
            )  # fmt: skip
        except RuntimeError as error:
            self.log.close()
            raise RuntimeError(
                f"the dnd5e domain server did not start ({error}); see {log}"
            ) from None

    def domains_setting(self) -> dict[str, Any]:
        return {"dnd5e": {"plugin": DND5E_PLUGIN, "url": self.url, "timeout": 10}}

    def stop(self) -> None:
        stop_process(self.process)
        self.log.close()


class CeleryWorker:
    """`python -m celery -A sagasmith_web worker` on the configured (Redis) broker."""

    def __init__(self, *, env: dict[str, str], pool: str, concurrency: int, log: Path) -> None:
        self.log = log.open("w")
        command = [
            sys.executable, "-m", "celery", "-A", "sagasmith_web", "worker",
            "-P", pool, "--loglevel", "WARNING",
            "--without-heartbeat", "--without-gossip", "--without-mingle",
        ]  # fmt: skip
        if pool != "solo":
            command += ["-c", str(concurrency)]
        self.process = subprocess.Popen(
            command, cwd=settings.BASE_DIR, env=env, stdout=self.log, stderr=subprocess.STDOUT
        )

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        stop_process(self.process, timeout=15)
        self.log.close()


class UvicornProcess:
    """`uvicorn sagasmith_web.asgi:application` (HTTP API and websockets, lifespan on) as its
    own process, as in production: the bench's clients and floor samples run elsewhere, so
    they neither share its interpreter lock nor slow it down."""

    def __init__(self, *, env: dict[str, str], log: Path) -> None:
        from domain_servers.common.testing import (
            listening_socket,
            spawn_on_socket,
            wait_until_serving,
        )

        # The server inherits a socket bound here: no other process can take the port between
        # its choice and the server's start.
        listener = listening_socket()
        self.port = listener.getsockname()[1]
        self.log = log.open("w")
        command = [
            sys.executable, "-m", "uvicorn", "sagasmith_web.asgi:application",
            "--lifespan", "on", "--ws", "websockets-sansio", "--log-level", "warning",
            "--no-access-log",
        ]  # fmt: skip
        self.process = spawn_on_socket(
            command, listener, cwd=settings.BASE_DIR, env=env, stdout=self.log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            # An HTTP answer: the inherited socket accepts connections before the app is loaded.
            wait_until_serving(self.process, self.port, timeout=30)
        except RuntimeError as exc:
            stop_process(self.process)  # the caller gets no handle to stop it by
            self.log.close()
            raise RuntimeError(f"the uvicorn server did not start ({exc}); see {log}") from exc

    def stop(self) -> None:
        stop_process(self.process, timeout=15)
        self.log.close()


class TurnCounter:
    """Counts, on this thread's database connection, the SQL statements and the write
    transactions (an atomic block that wrote, or one autocommit write), and every domain call
    made by this process, while installed."""

    def __init__(self) -> None:
        self.statements = 0
        self.write_transactions = 0
        self.domain_calls: Counter[str] = Counter()
        self._pending_write = False
        self.sql: list[str] = []

    def _wrap(self, execute, sql, params, many, context):
        from django.db import connection

        self.statements += 1
        head = sql.lstrip().upper()
        writes = (
            head.startswith(WRITE_PREFIXES)
            or "FOR UPDATE" in head
            or (head.startswith("WITH") and WRITES_IN_CTE.search(head) is not None)
        )
        if writes:
            if connection.in_atomic_block:
                self._pending_write = True
            else:
                self.write_transactions += 1
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            took = (time.perf_counter() - start) * 1000
            self.sql.append(f"{took:6.2f} ms  " + " ".join(sql.split())[:110])

    @contextlib.contextmanager
    def installed(self) -> Iterator[TurnCounter]:
        from django.db import connection

        import apps.domains.client as client

        original_dispatch = client._dispatch
        original_commit = connection._commit

        async def counted_dispatch(**kwargs):
            self.domain_calls[kwargs["tool"]] += 1
            return await original_dispatch(**kwargs)

        def counted_commit():
            if self._pending_write:
                self.write_transactions += 1
                self._pending_write = False
            return original_commit()

        client._dispatch = counted_dispatch
        connection._commit = counted_commit
        try:
            with connection.execute_wrapper(self._wrap):
                yield self
        finally:
            client._dispatch = original_dispatch
            del connection._commit  # back to the class's method


def worker_env(*, domains: dict[str, Any], domain_port: int, key_dir: str) -> dict[str, str]:
    """The environment of the worker and web subprocesses: this process's settings module and
    services,
    the bench domain server (both the JSON setting and the local settings' port variable) and
    the temp delegation keys."""
    import json

    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE=os.environ.get(
            "DJANGO_SETTINGS_MODULE", "sagasmith_web.settings.local"
        ),
        SAGASMITH_DOMAINS=json.dumps(domains),
        SAGASMITH_DND5E_PORT=str(domain_port),
        SAGASMITH_DELEGATION_KEY_DIR=key_dir,
        SAGASMITH_DELEGATION_PRIVATE_KEYS="",
        DJANGO_DEBUG="false",  # measured as production runs: no per-query debug recording
        # The per-user posting limit is still checked on every POST, but a bench player posts
        # far more often than a person.
        SAGASMITH_THROTTLE_MESSAGES="1000000/min",
    )
    return env


def bench_data_delete(tag: str, session_keys: list[str] | None = None) -> None:
    """Delete everything a bench_turns run with this tag created (also after a crash)."""
    from django.contrib.sessions.models import Session
    from django.db import connection

    from apps.accounts.models import User
    from apps.campaigns.models import Campaign
    from apps.projections.models import OutboxEvent
    from apps.rooms.models import Room
    from apps.turns.models import RoomTurnJob

    if not tag.isalnum():
        raise ValueError("a bench tag is alphanumeric")
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS bench_turns_floor_{tag}")
    campaigns = list(
        Campaign.objects.filter(name__startswith=f"bench turns {tag} ").values_list("id", flat=True)
    )
    users = User.objects.filter(email__startswith=f"bench-turns-{tag}-")
    OutboxEvent.objects.filter(campaign_id__in=campaigns).delete()
    # Jobs protect their trigger messages, so they go first; then rooms and campaigns.
    RoomTurnJob.objects.filter(campaign_id__in=campaigns).delete()
    Room.objects.filter(campaign_id__in=campaigns).delete()
    Campaign.objects.filter(id__in=campaigns).delete()
    if session_keys is None:
        # After a crash the keys are unknown: find the sessions of the bench users.
        ids = {str(pk) for pk in users.values_list("pk", flat=True)}
        session_keys = [
            s.session_key
            for s in Session.objects.filter(expire_date__gt=timezone.now())
            if s.get_decoded().get("_auth_user_id") in ids
        ]
    Session.objects.filter(session_key__in=session_keys).delete()
    users.delete()
