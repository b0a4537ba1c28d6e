"""Fault tests with real processes: a Celery worker killed with SIGKILL mid-job, and a domain
server killed inside its write transaction. Each checks exactly-once effects."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from apps.domains.client import domain_connections_close
from apps.quota.models import LedgerEntry, Reservation
from apps.rooms.models import Message
from apps.turns.models import Operation, RoomTurnJob
from apps.turns.services import turn_action_submit, turn_recovery_sweep, turn_run
from domain_servers.common.testing import REPO_ROOT, listening_socket, spawn_http_server
from sagasmith_web.celery import app as celery_app
from tests.turns.rooms_support import Room

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class DomainProcess:
    """A dnd5e HTTP server on a fixed port and database, restartable with other env."""

    def __init__(self, base: Path, jwks: Path) -> None:
        self.db_path = base / "dnd5e-fault.sqlite3"
        self.jwks = jwks
        self.listener: socket.socket | None = listening_socket()
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.process: subprocess.Popen | None = None

    def start(self, env: dict[str, str] | None = None) -> None:
        listener, self.listener = self.listener or listening_socket(self.port), None
        self.process = spawn_http_server(
            "domain_servers.dnd5e", f"sqlite:///{self.db_path}", str(self.jwks), listener,
            env={**os.environ, **(env or {})}, stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def mutations(self, key: str) -> int:
        with sqlite3.connect(self.db_path) as db:
            return db.execute(
                "SELECT count(*) FROM events WHERE idempotency_key = ?", (key,)
            ).fetchone()[0]


@pytest.fixture
def fault_domain(tmp_path, settings):
    from apps.domains.keys import ensure_local_keys

    settings.SAGASMITH_DELEGATION_KEY_DIR = str(tmp_path / "keys")
    settings.SAGASMITH_DELEGATION_PRIVATE_KEYS = ""
    server = DomainProcess(tmp_path, ensure_local_keys())
    server.start()
    with override_settings(SAGASMITH_DOMAINS={"dnd5e": {"url": server.url, "timeout": 10}}):
        try:
            yield server
        finally:
            domain_connections_close()
            server.kill()


def make_room(gm, player) -> Room:
    from apps.campaigns.services.campaigns import campaign_create
    from apps.rooms.services import room_get_or_create
    from tests.campaigns.conftest import join

    campaign = campaign_create(owner=gm, name="Keep", system_id="dnd5e",
                               idempotency_key=uuid.uuid4().hex)  # fmt: skip
    join(campaign, gm, player)
    room_get_or_create(campaign=campaign)
    campaign.refresh_from_db()
    return Room(campaign=campaign, gm=gm, player=player)


def test_domain_killed_mid_write_retry_mutates_once(fault_domain, gm, player, settings):
    settings.SAGASMITH_TURN_RETRY_SECONDS = 0.1
    room = make_room(gm, player)
    before = room.domain_revision()
    domain_connections_close()
    fault_domain.kill()
    fault_domain.start({"SAGASMITH_DOMAIN_FAULT": "pause:5"})
    job, _ = turn_action_submit(membership=room.membership(player), text="roll 1d20",
                                idempotency_key="fault-domain-1")  # fmt: skip
    outcome: dict[str, str] = {}
    worker = threading.Thread(
        target=lambda: outcome.setdefault("first", turn_run(job_id=job.pk, heartbeat=False))
    )
    worker.start()
    wait_for(lambda: Operation.objects.filter(job=job, tool="dice_roll").exists(), 20,
             "the dispatch")  # fmt: skip
    time.sleep(0.5)  # inside the server's paused write transaction
    fault_domain.kill()
    worker.join(30)
    assert outcome["first"] == "queued"
    job.refresh_from_db()
    assert (job.status, job.error_code, job.retryable) == ("queued", "domain_unavailable", True)
    op = Operation.objects.get(job=job)
    assert op.state == "dispatched"
    fault_domain.start()
    assert room.domain_revision() == before  # the killed transaction committed nothing
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    op.refresh_from_db()
    assert (op.state, op.attempt) == ("returned", 2)
    assert fault_domain.mutations(op.idempotency_key) == 1
    assert room.domain_revision() == before + 1
    assert Message.objects.filter(event_type="turn.narration").count() == 1
    assert LedgerEntry.objects.filter(reservation_id=job.reservation_id).count() == 1


def _database_url() -> str:
    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        return f"sqlite:///{name}"
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{name}"


class Worker:
    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.log = log.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "sagasmith_web", "worker", "-P", "solo",
             "--loglevel", "WARNING", "--without-heartbeat", "--without-gossip",
             "--without-mingle"],
            cwd=REPO_ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def kill9(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.log.close()


@pytest.fixture
def filesystem_broker(tmp_path):
    """Point this process's Celery app at a private filesystem broker the workers share."""
    folders = {name: tmp_path / "var" / "broker" / name for name in ("queue", "processed",
                                                                      "control")}  # fmt: skip
    for folder in folders.values():
        folder.mkdir(parents=True)
    saved = (celery_app.conf.broker_url, celery_app.conf.broker_transport_options)
    celery_app.conf.broker_url = "filesystem://"
    celery_app.conf.broker_transport_options = {
        "data_folder_in": str(folders["queue"]),
        "data_folder_out": str(folders["queue"]),
        "processed_folder": str(folders["processed"]),
        "control_folder": str(folders["control"]),
        "store_processed": False,
        "polling_interval": 0.05,
    }
    celery_app._pool = None  # connections are pooled per URL; start over with the new one
    celery_app.amqp._producer_pool = None
    yield tmp_path / "var"
    celery_app.conf.broker_url, celery_app.conf.broker_transport_options = saved
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def test_worker_killed_mid_job_finishes_exactly_once(fault_domain, filesystem_broker, gm,
                                                     player, settings, tmp_path):  # fmt: skip
    settings.SAGASMITH_TURN_RETRY_SECONDS = 0.1
    room = make_room(gm, player)
    before = room.domain_revision()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL",)}
    env.update(
        DJANGO_SETTINGS_MODULE="sagasmith_web.settings.test",
        DATABASE_URL=_database_url(),
        SAGASMITH_VAR_DIR=str(filesystem_broker),
        SAGASMITH_DOMAINS=json.dumps({"dnd5e": {"url": fault_domain.url, "timeout": 10}}),
        SAGASMITH_DELEGATION_KEY_DIR=settings.SAGASMITH_DELEGATION_KEY_DIR,
        SAGASMITH_TURN_LEASE_SECONDS="2",
        C_FORCE_ROOT="1",
    )
    first = Worker({**env, "SAGASMITH_TURN_FAULT": "pause_after_call:60"}, tmp_path / "w1.log")
    try:
        job, _ = turn_action_submit(membership=room.membership(player), text="roll 1d20",
                                    idempotency_key="fault-worker-1")  # fmt: skip
        # The first worker's call committed on the domain; it dies before journaling the result.
        wait_for(lambda: room.domain_revision() == before + 1, 60, "the domain write")
        op = Operation.objects.get(job=job)
        assert (op.state, op.attempt) == ("dispatched", 1)
    finally:
        first.kill9()
    RoomTurnJob.objects.filter(pk=job.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    second = Worker(env, tmp_path / "w2.log")
    try:
        assert turn_recovery_sweep()["requeued"] == 1
        wait_for(
            lambda: RoomTurnJob.objects.filter(pk=job.pk, status="succeeded").exists(),
            60,
            "the second worker",
        )
    finally:
        second.kill9()
    job.refresh_from_db()
    op.refresh_from_db()
    assert (job.attempt, op.state, op.attempt) == (2, "returned", 2)
    assert op.result["_meta"]["idempotent_replay"] is True
    assert fault_domain.mutations(op.idempotency_key) == 1
    assert room.domain_revision() == before + 1  # as in an undisturbed run: one dice_roll
    assert Message.objects.filter(event_type="turn.narration").count() == 1
    assert LedgerEntry.objects.filter(reservation_id=job.reservation_id).count() == 1
    assert Reservation.objects.get(pk=job.reservation_id).status == "settled"
