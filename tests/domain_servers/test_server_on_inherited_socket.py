"""`--fd`: a server process serves on a socket its supervisor bound, so the port is never free
for another process between its choice and the server's start."""

from __future__ import annotations

import errno
import signal
import socket
import subprocess
import sys

import pytest

from domain_servers.common.testing import (
    REPO_ROOT,
    HttpServerProcess,
    SigningKey,
    SyncClient,
    listening_socket,
    spawn_http_server,
    write_jwks,
)


def test_a_server_serves_tools_on_the_socket_it_inherits(tmp_path):
    jwks = write_jwks(tmp_path / "jwks.json", [SigningKey.generate()])
    server = HttpServerProcess("domain_servers.dnd5e", f"sqlite:///{tmp_path}/d.sqlite3", jwks)
    client = SyncClient(server.url)
    try:
        names = {tool.name for tool in client.list_tools().tools}
        assert {"campaign_create", "dice_roll"} <= names
    finally:
        client.close()
        server.stop()


def test_a_stopped_server_leaves_its_port_refusing_connections(tmp_path):
    server = HttpServerProcess("domain_servers.dnd5e", f"sqlite:///{tmp_path}/d.sqlite3", None)
    server.stop()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", server.port), timeout=2).close()


def test_a_port_another_process_listens_on_is_refused_not_mistaken_for_the_server():
    with socket.socket() as stranger:
        stranger.bind(("127.0.0.1", 0))
        stranger.listen()
        with pytest.raises(OSError) as caught:
            listening_socket(stranger.getsockname()[1])
    assert caught.value.errno == errno.EADDRINUSE


def test_a_server_that_exits_at_start_is_reported_though_its_port_accepts(tmp_path):
    listener = listening_socket()
    with pytest.raises(RuntimeError) as caught:
        spawn_http_server(
            "domain_servers.dnd5e", f"sqlite:///{tmp_path}/d.sqlite3", None, listener,
            extra=["--jwks-check-interval", "-1"],
        )  # fmt: skip
    assert str(caught.value).startswith("server exited early: ")
    assert "--jwks-check-interval: must be between 0 and 86400 seconds" in str(caught.value)


def test_a_server_that_never_answers_is_not_left_running(tmp_path, monkeypatch):
    from domain_servers.common import testing

    started = []

    class Recorded(subprocess.Popen):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            started.append(self)

    def never_answers(process, port, timeout=20.0):
        raise RuntimeError("server did not start serving")

    monkeypatch.setattr(testing.subprocess, "Popen", Recorded)
    monkeypatch.setattr(testing, "wait_until_serving", never_answers)
    with pytest.raises(RuntimeError):
        spawn_http_server(
            "domain_servers.dnd5e", f"sqlite:///{tmp_path}/d.sqlite3", None, listening_socket()
        )
    [process] = started
    assert process.returncode == -signal.SIGKILL
    process.stderr.close()


def test_an_inherited_socket_is_for_http_alone():
    done = subprocess.run(
        [sys.executable, "-m", "domain_servers.dnd5e", "--transport", "stdio", "--fd", "3"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "python -m domain_servers.dnd5e: error: --fd serves HTTP: it needs --transport http"
    )
