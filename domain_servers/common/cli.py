"""Command line shared by every server: `python -m domain_servers.<system> --transport ...`."""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
from collections.abc import Callable

from domain_servers.common.delegation import (
    DEFAULT_ISSUER,
    JWKS_CHECK_INTERVAL,
    JWKS_ENV,
    DelegationVerifier,
    JwksSource,
)
from domain_servers.common.server import DomainServer
from domain_servers.common.storage import Storage, default_db_url

LOOPBACK = {"127.0.0.1", "localhost", "::1"}

Factory = Callable[[Storage, DelegationVerifier], DomainServer]


def parse_args(system_id: str, argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"python -m domain_servers.{system_id}")
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8770)
    parser.add_argument(
        "--fd",
        type=int,
        default=None,
        help="serve HTTP on this inherited, already listening socket instead of binding "
        "--host and --port, so a supervisor keeps the port from the start",
    )
    parser.add_argument("--db", default=None, help="SQLAlchemy URL; default a local SQLite file")
    parser.add_argument(
        "--jwks",
        default=None,
        help=f"JWKS file (or ${JWKS_ENV}); re-read when a token names an unknown kid, and when "
        "it has changed, looked at every --jwks-check-interval seconds",
    )
    parser.add_argument(
        "--jwks-check-interval",
        type=_seconds,
        default=JWKS_CHECK_INTERVAL,
        help="seconds between looks at the JWKS file: how soon a removed key stops verifying "
        f"(default {JWKS_CHECK_INTERVAL:g})",
    )
    parser.add_argument("--audience", default=f"sagasmith-{system_id}")
    parser.add_argument("--issuer", default=DEFAULT_ISSUER)
    args = parser.parse_args(argv)
    if args.fd is not None and args.transport != "http":
        parser.error("--fd serves HTTP: it needs --transport http")
    return args


def _seconds(value: str) -> float:
    seconds = float(value)
    if not 0 <= seconds <= 86400:
        raise argparse.ArgumentTypeError("must be between 0 and 86400 seconds")
    return seconds


def main(system_id: str, factory: Factory, argv: list[str] | None = None) -> int:
    args = parse_args(system_id, argv)
    # stdout belongs to the protocol on stdio, so every log line goes to stderr.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    jwks_path = args.jwks or os.environ.get(JWKS_ENV) or None
    source = JwksSource(jwks_path, interval=args.jwks_check_interval)
    keys = source.load()
    listener = socket.socket(fileno=args.fd) if args.fd is not None else None
    host = listener.getsockname()[0] if listener is not None else args.host
    if args.transport == "http" and host not in LOOPBACK and not keys:
        print(
            f"refusing to bind {host}: a non-loopback HTTP server needs delegation keys "
            f"(--jwks or ${JWKS_ENV})",
            file=sys.stderr,
        )
        return 2
    if not keys:
        until = " until the JWKS file lists one" if jwks_path else ""
        print(
            f"warning: no delegation keys; every tool call will be refused{until}", file=sys.stderr
        )
    storage = Storage(args.db or default_db_url(system_id))
    verifier = DelegationVerifier(source, audience=args.audience, issuer=args.issuer)
    domain = factory(storage, verifier)
    mcp = domain.build_mcp()
    if args.transport == "stdio":
        mcp.run("stdio")
        return 0
    import uvicorn

    app = mcp.streamable_http_app(
        streamable_http_path="/mcp", stateless_http=True, json_response=True, host=host
    )
    if listener is None:
        uvicorn.run(app, host=host, port=args.port, log_level="warning", access_log=False)
    else:
        config = uvicorn.Config(app, log_level="warning", access_log=False)
        uvicorn.Server(config).run(sockets=[listener])
    return 0
