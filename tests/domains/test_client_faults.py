"""The pooled domain client under cancellation and timeouts, against real server processes."""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import override_settings

from apps.domains import client as client_module
from apps.domains.client import adomain_call, domain_call, domain_connections_close
from apps.domains.errors import DomainUnavailable
from apps.domains.registry import get_plugin
from domain_servers.common.storage import FAULT_ENV
from domain_servers.common.testing import REPO_ROOT, HttpServerProcess
from tests.domains.conftest import DND5E_PLUGIN, domains_setting
from tests.domains.gateway import Gateway

pytestmark = pytest.mark.django_db


def server_pids(tag: str) -> list[int]:
    """Live processes whose command line names `tag` (a unique database file)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue  # exited meanwhile
        if tag.encode() in cmdline:
            pids.append(int(entry.name))
    return pids


async def until(condition: Callable[[], bool], timeout: float) -> bool:
    """Poll an outside process's state (nothing to await) until it holds or time runs out."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


async def test_a_call_cancelled_while_connecting_leaves_no_server_running(domain_env, user):
    tag = f"cancelled-{uuid.uuid4().hex[:8]}.sqlite3"
    command = [
        sys.executable, "-m", "domain_servers.dnd5e", "--transport", "stdio",
        "--db", f"sqlite:///{domain_env.base}/{tag}", "--jwks", str(domain_env.jwks),
    ]  # fmt: skip
    setting = {"dnd5e": {"plugin": DND5E_PLUGIN, "command": command, "cwd": str(REPO_ROOT)}}
    with override_settings(SAGASMITH_DOMAINS=setting):
        plugin = get_plugin("dnd5e")
        call = asyncio.ensure_future(
            adomain_call(
                system_id="dnd5e",
                tool="campaign_get",
                arguments={},
                requester=user,
                campaign_id="c-1",
            )  # fmt: skip
        )
        # The stdio server is starting (the connection is being opened) when the caller
        # gives up, as a websocket that closes or an outer timeout does.
        assert await until(lambda: bool(server_pids(tag)), timeout=10)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        runtime = client_module._get_runtime()
        assert (plugin.system_id, plugin.target, plugin.timeout) not in runtime.connections
        # Nobody pooled the connection, so nobody would ever close it: it must close itself.
        assert await until(lambda: not server_pids(tag), timeout=15), server_pids(tag)


@pytest.fixture
def slow_writes(domain_env, tmp_path):
    """A dnd5e HTTP server whose every write takes two seconds to commit."""
    process = HttpServerProcess(
        "domain_servers.dnd5e",
        f"sqlite:///{tmp_path}/slow.sqlite3",
        str(domain_env.jwks),
        env={FAULT_ENV: "pause:2"},
    )
    try:
        yield process
    finally:
        domain_connections_close()
        process.stop()


def test_a_call_given_a_longer_timeout_than_the_servers_waits_for_its_answer(slow_writes, user):
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    with override_settings(SAGASMITH_DOMAINS=domains_setting(slow_writes.url, timeout=1)):
        created = domain_call(
            system_id="dnd5e", tool="campaign_create",
            arguments={"name": "Slow", "expected_revision": 0, "idempotency_key": "slow-1"},
            requester=user, campaign_id=campaign_id, timeout=6,
        )  # fmt: skip
    # Answered by the one send, not cut off at the server's default timeout and sent again.
    assert created.receipt["authority_revision"] == 1
    assert created.idempotent_replay is False


class FlakyGateway(Gateway):
    """While `failing`, tool calls are answered by the gateway itself with a 503 (no healthy
    upstream) and a plain-text body, as gateways do."""

    def __init__(self, upstream: str) -> None:
        self.failing = False
        super().__init__(upstream, self._answer)

    def _answer(self) -> tuple[int, dict[str, str], bytes] | None:
        if self.failing:
            return 503, {"Content-Type": "text/plain"}, b"no healthy upstream"
        return None


def test_an_upstream_503_is_a_retryable_outage_not_a_broken_contract(domain_env, user):
    gateway = FlakyGateway(domain_env.server.url)
    campaign_id = f"c-{uuid.uuid4().hex[:12]}"
    create = {"name": "Gateway", "expected_revision": 0, "idempotency_key": "gw-1"}
    try:
        with override_settings(SAGASMITH_DOMAINS=domains_setting(gateway.url)):
            domain_call(
                system_id="dnd5e", tool="campaign_create", arguments=create,
                requester=user, campaign_id=campaign_id,
            )  # fmt: skip
            gateway.failing = True
            with pytest.raises(DomainUnavailable) as caught:
                domain_call(
                    system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
                    campaign_id=campaign_id,
                )  # fmt: skip
            error = caught.value
            assert (error.code, error.status, error.retryable) == ("domain_unavailable", 503, True)
            assert error.message == "The D&D 5e (SRD 5.1) rules server is unavailable."
            assert error.details == {"system_id": "dnd5e", "tool": "campaign_get"}
            # It was passing: the same call, made again, is answered.
            gateway.failing = False
            read = domain_call(
                system_id="dnd5e", tool="campaign_get", arguments={}, requester=user,
                campaign_id=campaign_id,
            )  # fmt: skip
            assert read.authority_revision == 1
    finally:
        domain_connections_close()
        gateway.close()
