"""Helpers for tests and tools: Ed25519 keys, a JWKS file, token minting, server processes.

The web host mints with the same header and claims (architecture.md section 6).
"""

from __future__ import annotations

import asyncio
import base64
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, ListToolsResult

from domain_servers.common.delegation import DEFAULT_ISSUER, JWKS_ENV, META_KEY, TOKEN_TYPE

REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class SigningKey:
    kid: str
    private_key: Ed25519PrivateKey

    @classmethod
    def generate(cls, kid: str = "test-key-1") -> SigningKey:
        return cls(kid, Ed25519PrivateKey.generate())

    def public_jwk(self) -> dict[str, Any]:
        raw = self.private_key.public_key().public_bytes_raw()
        x = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        return {
            "kty": "OKP",
            "crv": "Ed25519",
            "x": x,
            "kid": self.kid,
            "alg": "EdDSA",
            "use": "sig",
        }


def write_jwks(path: str | os.PathLike[str], keys: list[SigningKey]) -> Path:
    target = Path(path)
    target.write_text(json.dumps({"keys": [k.public_jwk() for k in keys]}))
    return target


def mint_token(
    key: SigningKey,
    *,
    audience: str,
    sub: str,
    campaign: str,
    scope: str | list[str],
    base_rev: int = 0,
    iss: str = DEFAULT_ISSUER,
    act: str = "host:sagasmith-web",
    owner: str | None = None,
    character: str | None = None,
    view: str | None = None,
    turn: str = "turn-test",
    iat: int | None = None,
    exp: int | None = None,
    lifetime: int = 120,
    jti: str | None = None,
    typ: str = TOKEN_TYPE,
    kid: str | None = None,
) -> str:
    now = int(time.time()) if iat is None else iat
    claims: dict[str, Any] = {
        "iss": iss,
        "aud": audience,
        "sub": sub,
        "act": {"sub": act},
        "owner": owner or sub,
        "campaign": campaign,
        "turn": turn,
        "base_rev": base_rev,
        "scope": scope if isinstance(scope, str) else " ".join(scope),
        "iat": now,
        "exp": now + lifetime if exp is None else exp,
        "jti": jti or uuid.uuid4().hex,
    }
    if character is not None:
        claims["character"] = character
    if view is not None:
        claims["view"] = view
    headers = {"kid": kid or key.kid, "typ": typ}
    return jwt.encode(claims, key.private_key, algorithm="EdDSA", headers=headers)


def delegation_meta(token: str, **extra: Any) -> dict[str, Any]:
    return {META_KEY: token, **extra}


def listening_socket(port: int = 0) -> socket.socket:
    """A loopback socket already listening, for a server process to inherit (`--fd`, through
    `pass_fds`, so no other child inherits it).

    The test process binds and hands the socket down, so no other process can take the port
    between its choice and the server's start; a port another process holds fails here, loudly.
    """
    sock = socket.socket()
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def server_command(
    module: str,
    transport: str,
    db_url: str,
    jwks: str | None,
    extra: list[str] | None = None,
) -> list[str]:
    command = [sys.executable, "-m", module, "--transport", transport, "--db", db_url]
    if jwks is not None:
        command += ["--jwks", jwks]
    return command + (extra or [])


def spawn_on_socket(command: list[str], listener: socket.socket, **popen: Any) -> subprocess.Popen:
    """Start `command` with `--fd N` serving on `listener`, which only the child inherits.

    Our copy of the socket is closed once the child has it, so the port refuses connections
    again when the server stops.
    """
    try:
        return subprocess.Popen(
            [*command, "--fd", str(listener.fileno())], pass_fds=(listener.fileno(),), **popen
        )
    finally:
        listener.close()


def spawn_http_server(
    module: str,
    db_url: str,
    jwks: str | None,
    listener: socket.socket,
    *,
    env: dict[str, str] | None = None,
    extra: list[str] | None = None,
    stderr: Any = subprocess.PIPE,
) -> subprocess.Popen:
    """Start a server on `listener` (see spawn_on_socket) and wait until it answers HTTP there."""
    port = listener.getsockname()[1]
    process = spawn_on_socket(
        server_command(module, "http", db_url, jwks, extra=extra),
        listener,
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        text=True,
    )
    try:
        wait_until_serving(process, port)
    except BaseException:
        # No caller holds the process yet: one that never answered would keep its port and db.
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        raise
    return process


def wait_until_serving(process: subprocess.Popen, port: int, timeout: float = 60.0) -> None:
    """Block until the server answers an HTTP request on port; raise if it exits first.

    The inherited socket accepts connections before the server runs, so only an HTTP answer
    (any status) shows it is ready. A server that dies says so at once; the bound is for one
    that hangs, and is long enough for a start on a loaded two-core machine (over 20 s seen).
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            stderr = process.stderr.read() if process.stderr else ""
            raise RuntimeError(f"server exited early: {stderr}")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=0.5)
        try:
            connection.request("GET", "/mcp")
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.05)
        finally:
            connection.close()
    raise RuntimeError("server did not start serving")


class HttpServerProcess:
    """A real server process on a loopback port it was handed at start."""

    def __init__(
        self,
        module: str,
        db_url: str,
        jwks: str | None,
        env: dict[str, str] | None = None,
        extra: list[str] | None = None,
    ) -> None:
        listener = listening_socket()
        self.port = listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        child_env = {**os.environ, **(env or {})}
        child_env.pop(JWKS_ENV, None)
        self.process = spawn_http_server(module, db_url, jwks, listener, env=child_env, extra=extra)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        if self.process.stderr:
            self.process.stderr.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self.process.stderr:
            self.process.stderr.close()


class SyncClient:
    """A blocking facade over `mcp.Client`, owned by one task on a private event loop.

    Tests stay synchronous while the client keeps one connection (one stdio process, or one
    HTTP client) for many calls.
    """

    def __init__(self, target: str | StdioServerParameters, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._ready: asyncio.Future[Client] | None = None
        self._closing: asyncio.Event | None = None
        started = threading.Event()
        self._error: BaseException | None = None

        async def owner() -> None:
            self._closing = asyncio.Event()
            try:
                async with Client(target, read_timeout_seconds=timeout) as client:
                    self.client = client
                    started.set()
                    await self._closing.wait()
            except BaseException as exc:  # reported to the constructor or close()
                self._error = exc
                started.set()

        self._owner = asyncio.run_coroutine_threadsafe(owner(), self._loop)
        started.wait(timeout)
        if self._error is not None:
            raise RuntimeError(f"client failed to connect: {self._error!r}")

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(self.timeout)

    def list_tools(self) -> ListToolsResult:
        return self.run(self.client.list_tools(cache_mode="refresh"))

    def call(
        self, name: str, arguments: dict[str, Any], meta: dict[str, Any] | None = None
    ) -> CallToolResult:
        return self.run(self.client.call_tool(name, arguments, meta=meta))

    def close(self) -> None:
        if self._closing is not None:
            self._loop.call_soon_threadsafe(self._closing.set)
        try:
            self._owner.result(self.timeout)
        except Exception:  # noqa: S110 - a dead server may fail the orderly shutdown
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(self.timeout)
        self._loop.close()


def stdio_params(
    module: str, db_url: str, jwks: str | None, env: dict[str, str] | None = None
) -> StdioServerParameters:
    command = server_command(module, "stdio", db_url, jwks)
    child_env = {k: v for k, v in os.environ.items() if k != JWKS_ENV}
    child_env.update(env or {})
    return StdioServerParameters(
        command=command[0], args=command[1:], env=child_env, cwd=str(REPO_ROOT)
    )
