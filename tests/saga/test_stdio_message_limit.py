"""The stdio transport refuses a message over the request limit without holding it in memory."""

import json
import queue
import subprocess
import sys
import threading

import pytest

from tests.saga.test_mcp_blackbox import (  # noqa: F401 - fixtures
    ROOT,
    STDIO_EMAIL,
    sqlite_stdio_db,
    stdio_env,
)

pytestmark = pytest.mark.django_db(transaction=True)

LIMIT = 4096  # tests/saga/settings_stdio_limit.py


class StdioServer:
    def __init__(self, env):
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "saga_mcp", "--transport", "stdio"]
            + ["--user", STDIO_EMAIL],
            cwd=ROOT,
            env={**env, "DJANGO_SETTINGS_MODULE": "tests.saga.settings_stdio_limit"},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue = queue.Queue()
        self.stderr = b""
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, raw: bytes) -> None:
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def reply(self) -> dict:
        return json.loads(self.lines.get(timeout=60))

    def peak_rss_kib(self) -> int:
        with open(f"/proc/{self.proc.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        raise AssertionError("no VmHWM")

    def close(self) -> str:
        self.proc.stdin.close()
        self.proc.wait(60)
        return self.proc.stderr.read().decode()


def _request(id_, method, params=None) -> bytes:
    message = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode()


def _padded_to(size: int, id_) -> bytes:
    """A tools/list request of exactly `size` bytes."""
    empty = _request(id_, "tools/list", {"_meta": {"pad": ""}})
    return _request(id_, "tools/list", {"_meta": {"pad": "x" * (size - len(empty))}})


def _too_large(id_) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": id_,
        "error": {
            "code": -32600,
            "message": f"The message is larger than {LIMIT} bytes.",
            "data": {
                "code": "request_too_large",
                "message": f"The message is larger than {LIMIT} bytes.",
                "retryable": False,
                "recovery": "Send fewer or smaller artifacts per call.",
                "details": {"limit": LIMIT},
            },
        },
    }


def test_stdio_refuses_a_message_over_the_limit_and_serves_the_next(stdio_env):  # noqa: F811
    server = StdioServer(stdio_env)
    try:
        server.send(
            _request(
                1,
                "initialize",
                {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "1"},
                },
            )
        )
        assert server.reply()["result"]["serverInfo"]["name"] == "sagasmith-saga"
        server.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        before = server.peak_rss_kib()

        huge = 64 * 1_048_576
        call = _request(
            2, "tools/call", {"name": "saga_status", "arguments": {"sagaId": "x" * huge}}
        )
        server.send(call)
        assert server.reply() == _too_large(2)
        # The 64 MiB line was skipped, not read whole.
        assert server.peak_rss_kib() - before < 16 * 1024

        # The id comes after the params: it cannot be known without reading them.
        late_id = b'{"params": {"pad": "' + b"x" * LIMIT + b'"}, "id": 3, "method": "tools/list"}'
        server.send(late_id)
        assert server.reply() == _too_large(None)

        server.send(_padded_to(LIMIT + 1, 4))
        assert server.reply() == _too_large(4)

        exact = _padded_to(LIMIT, 5)
        assert len(exact) == LIMIT
        server.send(exact)
        reply = server.reply()
        assert reply["id"] == 5
        assert sorted(tool["name"] for tool in reply["result"]["tools"]) == [
            "saga_advance",
            "saga_cancel",
            "saga_start",
            "saga_status",
        ]
    finally:
        stderr = server.close()
    assert stderr.count(f"stdio message over {LIMIT} bytes refused") == 3, stderr
