"""The tool catalog's listing over the pooled connection: a dead stdio server is replaced, and a
listing that outlives its deadline is cancelled, not left running on the client loop."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
import uuid

import pytest
from django.test import override_settings

from apps.domains import client as client_module
from apps.domains.errors import DomainUnavailable
from apps.domains.registry import get_plugin
from apps.turns.catalog import tool_catalog, tool_catalog_clear
from domain_servers.common.testing import REPO_ROOT
from tests.domains.conftest import DND5E_PLUGIN, domains_setting
from tests.domains.test_client_faults import server_pids


def until(condition, timeout: float) -> bool:
    """Poll an outside process's state (nothing to await) until it holds or time runs out."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture(autouse=True)
def empty_catalog():
    tool_catalog_clear()
    yield
    tool_catalog_clear()


def test_a_listing_after_the_stdio_server_died_starts_a_new_one(domain_env):
    tag = f"catalog-{uuid.uuid4().hex[:8]}.sqlite3"
    command = [
        sys.executable, "-m", "domain_servers.dnd5e", "--transport", "stdio",
        "--db", f"sqlite:///{domain_env.base}/{tag}", "--jwks", str(domain_env.jwks),
    ]  # fmt: skip
    setting = {"dnd5e": {"plugin": DND5E_PLUGIN, "command": command, "cwd": str(REPO_ROOT)}}
    with override_settings(SAGASMITH_DOMAINS=setting):
        try:
            first = tool_catalog("dnd5e")
            assert "campaign_get" in first
            [pid] = server_pids(tag)
            os.kill(pid, signal.SIGKILL)
            # A killed child stays a zombie (empty command line) until its parent reaps it.
            assert until(lambda: not server_pids(tag), timeout=10)
            again = tool_catalog("dnd5e", refresh=True)
            assert again == first
            [new_pid] = server_pids(tag)
            assert new_pid != pid
            plugin = get_plugin("dnd5e")
            runtime = client_module._get_runtime()
            assert runtime.connections[(plugin.system_id, plugin.target, plugin.timeout)].alive
        finally:
            client_module.domain_connections_close()


def test_a_listing_past_its_deadline_is_cancelled(domain_env, monkeypatch):
    started = threading.Event()
    cancelled = threading.Event()

    async def never_answers(*args, **kwargs):
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise

    monkeypatch.setattr(client_module, "_pooled", never_answers)
    monkeypatch.setattr(client_module, "CONNECT_TIMEOUT", 0.05)
    with override_settings(SAGASMITH_DOMAINS=domains_setting(domain_env.server.url, timeout=0.1)):
        with pytest.raises(DomainUnavailable) as caught:
            tool_catalog("dnd5e")
    assert started.is_set()
    assert caught.value.message == "The D&D 5e (SRD 5.1) rules server is unavailable."
    # The caller gave up: the listing must not run on in the client loop.
    assert cancelled.wait(5)
