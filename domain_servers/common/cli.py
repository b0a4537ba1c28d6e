"""Command line shared by every server: `python -m domain_servers.<system> --transport ...`."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable

from domain_servers.common.delegation import DEFAULT_ISSUER, JWKS_ENV, DelegationVerifier, load_jwks
from domain_servers.common.server import DomainServer
from domain_servers.common.storage import Storage, default_db_url

LOOPBACK = {"127.0.0.1", "localhost", "::1"}

Factory = Callable[[Storage, DelegationVerifier], DomainServer]


def parse_args(system_id: str, argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"python -m domain_servers.{system_id}")
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8770)
    parser.add_argument("--db", default=None, help="SQLAlchemy URL; default a local SQLite file")
    parser.add_argument("--jwks", default=None, help=f"JWKS file (or ${JWKS_ENV})")
    parser.add_argument("--audience", default=f"sagasmith-{system_id}")
    parser.add_argument("--issuer", default=DEFAULT_ISSUER)
    return parser.parse_args(argv)


def main(system_id: str, factory: Factory, argv: list[str] | None = None) -> int:
    args = parse_args(system_id, argv)
    # stdout belongs to the protocol on stdio, so every log line goes to stderr.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    jwks_path = args.jwks or os.environ.get(JWKS_ENV) or None
    keys = load_jwks(jwks_path)
    if args.transport == "http" and args.host not in LOOPBACK and not keys:
        print(
            f"refusing to bind {args.host}: a non-loopback HTTP server needs delegation keys "
            f"(--jwks or ${JWKS_ENV})",
            file=sys.stderr,
        )
        return 2
    if not keys:
        print("warning: no delegation keys; every tool call will be refused", file=sys.stderr)
    storage = Storage(args.db or default_db_url(system_id))
    verifier = DelegationVerifier(keys, audience=args.audience, issuer=args.issuer)
    domain = factory(storage, verifier)
    mcp = domain.build_mcp()
    if args.transport == "stdio":
        mcp.run("stdio")
        return 0
    import uvicorn

    app = mcp.streamable_http_app(
        streamable_http_path="/mcp", stateless_http=True, json_response=True, host=args.host
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    return 0
