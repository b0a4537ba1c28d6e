"""Fixtures: a real dnd5e server process verifying tokens minted by apps.domains."""

from __future__ import annotations

import socket
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings

from apps.domains.client import domain_connections_close
from apps.domains.keys import ensure_local_keys
from domain_servers.common.testing import SyncClient, listening_socket, spawn_http_server

DND5E_PLUGIN = "apps.domains.plugins.dnd5e.Dnd5ePlugin"


class ServerProcess:
    """A dnd5e HTTP server on a fixed loopback port, so a restart keeps the configured URL."""

    def __init__(self, *, db_url: str, jwks: Path) -> None:
        self.db_url = db_url
        self.jwks = jwks
        listener = listening_socket()
        self.port = listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.process: subprocess.Popen[str] | None = None
        self.start(listener)

    def start(self, listener: socket.socket | None = None) -> None:
        self.process = spawn_http_server(
            "domain_servers.dnd5e",
            self.db_url,
            str(self.jwks),
            listener or listening_socket(self.port),
        )

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self.process.stderr:
            self.process.stderr.close()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def raw_call(self, tool: str, arguments: dict[str, Any], token: str) -> Any:
        """A call that bypasses apps.domains, to send a token exactly as given."""
        client = SyncClient(self.url, timeout=10)
        try:
            return client.call(tool, arguments, {"io.sagasmith/delegation": token})
        finally:
            client.close()


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A loopback port that refuses connections: bound by this test, never listening."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@dataclass
class DomainEnv:
    server: ServerProcess
    key_dir: Path
    jwks: Path
    base: Path


def domains_setting(url: str, **extra: Any) -> dict[str, Any]:
    return {"dnd5e": {"plugin": DND5E_PLUGIN, "url": url, "timeout": 10, **extra}}


@pytest.fixture(scope="module")
def domain_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DomainEnv]:
    base = tmp_path_factory.mktemp("domains")
    key_dir = base / "keys"
    # An empty variable selects local key files, whatever the developer's shell exports.
    with override_settings(SAGASMITH_DELEGATION_KEY_DIR=str(key_dir),
                           SAGASMITH_DELEGATION_PRIVATE_KEYS=""):  # fmt: skip
        jwks = ensure_local_keys()
        server = ServerProcess(db_url=f"sqlite:///{base}/dnd5e.sqlite3", jwks=jwks)
        try:
            with override_settings(SAGASMITH_DOMAINS=domains_setting(server.url)):
                yield DomainEnv(server, key_dir, jwks, base)
        finally:
            domain_connections_close()
            server.stop()


def error_of(result: Any) -> dict[str, Any]:
    assert result.is_error, result.structured_content
    return result.structured_content["error"]
