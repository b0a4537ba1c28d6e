"""Benchmark: verified `dice_roll` (delegation + jti + CAS + idempotency) next to a bare
MCPServer no-op tool on the same transport, sequential and 8-way concurrent.

    python -m domain_servers.bench --transport http|stdio [--calls 300]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

from mcp import Client

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
    client: Client,
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


async def timed(
    n: int, concurrency: int, fn: Callable[[int, int], Awaitable[None]]
) -> dict[str, float]:
    latencies: list[float] = []

    async def worker(w: int) -> None:
        for i in range(n // concurrency):
            start = time.perf_counter()
            await fn(w, i)
            latencies.append(time.perf_counter() - start)

    start = time.perf_counter()
    await asyncio.gather(*(worker(w) for w in range(concurrency)))
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {
        "calls_per_s": len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
    }


async def bench_pair(transport: str, calls: int, workdir: str) -> list[tuple[str, dict]]:
    key = SigningKey.generate("bench")
    jwks = str(write_jwks(os.path.join(workdir, "jwks.json"), [key]))
    db = f"sqlite:///{workdir}/bench.sqlite3"
    processes: list[HttpServerProcess] = []
    if transport == "http":
        domain = HttpServerProcess("domain_servers.dnd5e", db, jwks)
        noop = HttpServerProcess(
            "domain_servers.bench", db, None, extra=["--serve-noop", "--noop-port"]
        )
        processes += [domain, noop]
        domain_target: Any = domain.url
        noop_target: Any = noop.url
    else:
        domain_target = stdio_params("domain_servers.dnd5e", db, jwks)
        command = server_command("domain_servers.bench", "stdio", db, None) + ["--serve-noop"]
        noop_target = stdio_params("domain_servers.bench", db, None)
        noop_target.args = command[1:]
    rows: list[tuple[str, dict]] = []
    try:
        async with Client(domain_target) as dclient, Client(noop_target) as nclient:
            campaigns = [Campaign(key, f"bench-{w}") for w in range(9)]
            for campaign in campaigns:
                await verified_call(dclient, campaign, "campaign_create", {"name": "Bench"})
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
                rows.append((f"noop {label}", await timed(calls, concurrency, noop_call)))
                rows.append((f"dice_roll {label}", await timed(calls, concurrency, dice_call)))
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
    table = dict(rows)
    print(f"transport: {args.transport}, calls per row: {args.calls}")
    print(f"{'row':<24}{'calls/s':>10}{'p50 ms':>10}{'p99 ms':>10}")
    for name, row in rows:
        print(f"{name:<24}{row['calls_per_s']:>10.1f}{row['p50_ms']:>10.2f}{row['p99_ms']:>10.2f}")
    for label in ("sequential", "8-way"):
        ratio = table[f"dice_roll {label}"]["calls_per_s"] / table[f"noop {label}"]["calls_per_s"]
        print(f"ratio verified dice_roll / bare no-op ({label}): {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
