"""Benchmark: verified `dice_roll` (delegation + jti + CAS + idempotency) next to a bare
MCPServer no-op tool on the same transport, sequential and 8-way concurrent.

    python -m domain_servers.bench --transport http|stdio [--calls 400]

Over HTTP every row runs twice: with the SDK's `mcp.Client`, and with `RawHttpClient`, which
sends the same requests with a fraction of the client-side CPU, so its rows show what the
servers cost. The `server ms` column is the server process's CPU time per call.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from mcp import Client
from mcp.client.session import DEFAULT_CLIENT_INFO
from mcp.shared.inbound import MCP_METHOD_HEADER, MCP_NAME_HEADER, MCP_PROTOCOL_VERSION_HEADER
from mcp_types import (
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    PROTOCOL_VERSION_META_KEY,
    CallToolResult,
)
from mcp_types.version import LATEST_MODERN_VERSION

from domain_servers.common.testing import (
    HttpServerProcess,
    SigningKey,
    delegation_meta,
    mint_token,
    server_command,
    stdio_params,
    write_jwks,
)

AUDIENCE = "sagasmith-dnd5e"
OWNER = "user:bench-owner"
SDK_CLIENT = "mcp.Client"
RAW_CLIENT = "raw HTTP"


class ProtocolError(Exception):
    """The server's answer is not a successful JSON-RPC response to the request sent."""


class RawHttpClient:
    """The smallest client that speaks what `mcp.Client` speaks to a stateless HTTP server.

    `mcp.Client` in its default mode probes `server/discover` at the newest protocol version,
    then POSTs each request with the routing headers (`MCP-Protocol-Version`, `Mcp-Method`,
    `Mcp-Name`) and the protocol version, client info and capabilities in `params._meta`. This
    client sends the same over keep-alive HTTP/1.1 (one connection per concurrent request) and
    checks every answer as a JSON-RPC result for its request id.
    """

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or parts.hostname is None:
            raise ValueError(f"RawHttpClient speaks plain http only, not {url!r}")
        self.host = parts.hostname
        self.port = parts.port or 80
        self._target = parts.path or "/"
        self._authority = parts.netloc
        self._ids = itertools.count(1)
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self._client_meta = {
            PROTOCOL_VERSION_META_KEY: LATEST_MODERN_VERSION,
            CLIENT_INFO_META_KEY: DEFAULT_CLIENT_INFO.model_dump(exclude_none=True),
            CLIENT_CAPABILITIES_META_KEY: {},
        }

    async def __aenter__(self) -> RawHttpClient:
        discovered = await self.request("server/discover", {"_meta": self._client_meta})
        if LATEST_MODERN_VERSION not in discovered.get("supportedVersions", ()):
            raise ProtocolError(f"the server does not speak {LATEST_MODERN_VERSION}")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        for _reader, writer in self._idle:
            writer.close()
        self._idle.clear()

    async def call_tool(
        self, name: str, arguments: dict[str, Any], meta: dict[str, Any] | None = None
    ) -> CallToolResult:
        params = {
            "_meta": {**(meta or {}), **self._client_meta},
            "name": name,
            "arguments": arguments,
        }
        return CallToolResult.model_validate(await self.request("tools/call", params, name))

    async def request(
        self, method: str, params: dict[str, Any], name: str | None = None
    ) -> dict[str, Any]:
        request_id = next(self._ids)
        body = json.dumps(
            {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params},
            separators=(",", ":"),
        ).encode()
        head = (
            f"POST {self._target} HTTP/1.1\r\n"
            f"Host: {self._authority}\r\n"
            "Accept: application/json, text/event-stream\r\n"
            "Content-Type: application/json\r\n"
            f"{MCP_PROTOCOL_VERSION_HEADER}: {LATEST_MODERN_VERSION}\r\n"
            f"{MCP_METHOD_HEADER}: {method}\r\n"
            + (f"{MCP_NAME_HEADER}: {name}\r\n" if name is not None else "")
            + f"Content-Length: {len(body)}\r\n\r\n"
        ).encode("ascii")
        if self._idle:
            reader, writer = self._idle.pop()
        else:
            reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(head + body)
            status, headers, payload = await _read_response(reader)
        except BaseException:
            writer.close()
            raise
        if headers.get("connection", "").lower() == "close":
            writer.close()
        else:
            self._idle.append((reader, writer))
        return _jsonrpc_result(status, headers, payload, request_id)


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    status_line, *lines = head[:-4].split("\r\n")
    version, _, rest = status_line.partition(" ")
    if not version.startswith("HTTP/1.") or not rest[:3].isdigit():
        raise ProtocolError(f"not an HTTP/1.x status line: {status_line!r}")
    headers = {}
    for line in lines:
        field, _, value = line.partition(":")
        headers[field.strip().lower()] = value.strip()
    # A JSON-mode answer always has a length; chunked and SSE bodies are not spoken here.
    if "content-length" not in headers:
        raise ProtocolError("response has no Content-Length")
    return int(rest[:3]), headers, await reader.readexactly(int(headers["content-length"]))


def _jsonrpc_result(
    status: int, headers: dict[str, str], payload: bytes, request_id: int
) -> dict[str, Any]:
    content_type = headers.get("content-type", "")
    if not content_type.startswith("application/json"):
        raise ProtocolError(f"HTTP {status} with content type {content_type!r}: {payload[:200]!r}")
    message = json.loads(payload)
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        raise ProtocolError("the body is not a JSON-RPC 2.0 message")
    if "error" in message:
        raise ProtocolError(f"JSON-RPC error (HTTP {status}): {message['error']}")
    if status != 200:
        raise ProtocolError(f"HTTP {status} for a JSON-RPC result")
    if message.get("id") != request_id:
        raise ProtocolError(f"response id {message.get('id')!r} does not match {request_id}")
    if not isinstance(message.get("result"), dict):
        raise ProtocolError("the JSON-RPC response has no result object")
    return message["result"]


ToolClient = Client | RawHttpClient


def serve_noop(transport: str, port: int) -> None:
    from mcp.server import MCPServer

    server = MCPServer("bench-noop", log_level="WARNING")

    @server.tool()
    def noop() -> str:
        """Do nothing."""
        return "ok"

    if transport == "stdio":
        server.run("stdio")
        return
    import uvicorn

    app = server.streamable_http_app(
        streamable_http_path="/mcp", stateless_http=True, json_response=True
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


class Campaign:
    """One campaign driven sequentially; tokens are minted ahead so timing sees the server."""

    def __init__(self, key: SigningKey, campaign_id: str) -> None:
        self.key = key
        self.campaign_id = campaign_id
        self.revision = 0
        self.counter = 0

    def request(self, tool: str, args: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        self.counter += 1
        token = mint_token(
            self.key,
            audience=AUDIENCE,
            sub=OWNER,
            campaign=self.campaign_id,
            scope=[tool],
            base_rev=self.revision,
        )
        arguments = {
            "campaign_id": self.campaign_id,
            **args,
            "expected_revision": self.revision,
            "idempotency_key": f"{self.campaign_id}:{self.counter}",
        }
        return arguments, delegation_meta(token)


async def verified_call(
    client: ToolClient,
    campaign: Campaign,
    tool: str,
    args: dict[str, Any],
    prepared: tuple[dict[str, Any], dict[str, Any]] | None = None,
) -> None:
    arguments, meta = prepared or campaign.request(tool, args)
    result = await client.call_tool(tool, arguments, meta=meta)
    if result.is_error:
        raise RuntimeError(f"{tool} failed: {result.structured_content}")
    receipt = result.structured_content["receipt"]
    if receipt["authority_revision"] != campaign.revision + 1:
        raise RuntimeError("receipt revision mismatch")
    campaign.revision += 1


def process_cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU of a process from /proc (None where that is not available)."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return None
    # utime and stime are the 14th and 15th fields; the split starts at the 3rd.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def timed(
    n: int, concurrency: int, fn: Callable[[int, int], Awaitable[None]], server_pid: int | None
) -> dict[str, float]:
    latencies: list[float] = []

    async def worker(w: int) -> None:
        for i in range(n // concurrency):
            start = time.perf_counter()
            await fn(w, i)
            latencies.append(time.perf_counter() - start)

    cpu_before = process_cpu_seconds(server_pid)
    start = time.perf_counter()
    await asyncio.gather(*(worker(w) for w in range(concurrency)))
    elapsed = time.perf_counter() - start
    cpu_after = process_cpu_seconds(server_pid)
    latencies.sort()
    row = {
        "calls_per_s": len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
    }
    if cpu_before is not None and cpu_after is not None:
        row["server_cpu_ms"] = (cpu_after - cpu_before) * 1000 / len(latencies)
    return row


async def bench_clients(
    client_name: str,
    dclient: ToolClient,
    nclient: ToolClient,
    campaigns: list[Campaign],
    calls: int,
    pids: tuple[int | None, int | None],
) -> list[tuple[str, str, dict]]:
    domain_pid, noop_pid = pids
    for _ in range(20):  # warm both paths
        await nclient.call_tool("noop", {})
        await verified_call(dclient, campaigns[0], "dice_roll", {"expression": "1d20+5"})

    async def noop_call(_w: int, _i: int) -> None:
        result = await nclient.call_tool("noop", {})
        if result.is_error:
            raise RuntimeError("noop failed")

    async def dice_call(w: int, _i: int) -> None:
        campaign = campaigns[w]
        await verified_call(
            dclient,
            campaign,
            "dice_roll",
            {"expression": "1d20+5"},
            prepared.pop((w, campaign.revision)),
        )

    rows: list[tuple[str, str, dict]] = []
    for concurrency in (1, 8):
        # Mint every token before the clock starts: the server's work is what we time.
        prepared: dict[tuple[int, int], Any] = {}
        for w in range(concurrency):
            campaign = campaigns[w]
            saved = campaign.revision
            for _ in range(calls // concurrency):
                prepared[(w, campaign.revision)] = campaign.request(
                    "dice_roll", {"expression": "1d20+5"}
                )
                campaign.revision += 1
            campaign.revision = saved
        label = "sequential" if concurrency == 1 else f"{concurrency}-way"
        noop_row = await timed(calls, concurrency, noop_call, noop_pid)
        rows.append((client_name, f"noop {label}", noop_row))
        dice_row = await timed(calls, concurrency, dice_call, domain_pid)
        rows.append((client_name, f"dice_roll {label}", dice_row))
    return rows


async def bench_pair(transport: str, calls: int, workdir: str) -> list[tuple[str, str, dict]]:
    key = SigningKey.generate("bench")
    jwks = str(write_jwks(os.path.join(workdir, "jwks.json"), [key]))
    db = f"sqlite:///{workdir}/bench.sqlite3"
    processes: list[HttpServerProcess] = []
    pids: tuple[int | None, int | None] = (None, None)
    if transport == "http":
        domain = HttpServerProcess("domain_servers.dnd5e", db, jwks)
        noop = HttpServerProcess(
            "domain_servers.bench", db, None, extra=["--serve-noop", "--noop-port"]
        )
        processes += [domain, noop]
        pids = (domain.process.pid, noop.process.pid)
        domain_target: Any = domain.url
        noop_target: Any = noop.url
    else:
        domain_target = stdio_params("domain_servers.dnd5e", db, jwks)
        command = server_command("domain_servers.bench", "stdio", db, None) + ["--serve-noop"]
        noop_target = stdio_params("domain_servers.bench", db, None)
        noop_target.args = command[1:]
    rows: list[tuple[str, str, dict]] = []
    try:
        campaigns = [Campaign(key, f"bench-{w}") for w in range(9)]
        async with Client(domain_target) as dclient, Client(noop_target) as nclient:
            for campaign in campaigns:
                await verified_call(dclient, campaign, "campaign_create", {"name": "Bench"})
            rows += await bench_clients(SDK_CLIENT, dclient, nclient, campaigns, calls, pids)
        if transport == "http":
            async with RawHttpClient(domain.url) as draw, RawHttpClient(noop.url) as nraw:
                rows += await bench_clients(RAW_CLIENT, draw, nraw, campaigns, calls, pids)
    finally:
        for process in processes:
            process.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m domain_servers.bench")
    parser.add_argument("--transport", choices=["http", "stdio"], default="http")
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--serve-noop", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--noop-port", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--db", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--jwks", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_noop:
        serve_noop(args.transport, args.port)
        return 0
    with tempfile.TemporaryDirectory() as workdir:
        rows = asyncio.run(bench_pair(args.transport, args.calls, workdir))
    table = {(client, name): row for client, name, row in rows}
    print(f"transport: {args.transport}, calls per row: {args.calls}")
    print(f"{'client':<12}{'row':<24}{'calls/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'server ms':>11}")
    for client, name, row in rows:
        cpu = f"{row['server_cpu_ms']:>11.2f}" if "server_cpu_ms" in row else f"{'-':>11}"
        print(
            f"{client:<12}{name:<24}{row['calls_per_s']:>10.1f}{row['p50_ms']:>10.2f}"
            f"{row['p99_ms']:>10.2f}{cpu}"
        )
    for client in dict.fromkeys(client for client, _, _ in rows):
        for label in ("sequential", "8-way"):
            dice = table[(client, f"dice_roll {label}")]["calls_per_s"]
            ratio = dice / table[(client, f"noop {label}")]["calls_per_s"]
            print(f"ratio verified dice_roll / bare no-op, {client} ({label}): {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
