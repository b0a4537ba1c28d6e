"""Conformance fixtures: every registered server x {stdio, http}, real processes."""

from __future__ import annotations

import itertools
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest

from domain_servers.common.testing import (
    HttpServerProcess,
    SigningKey,
    SyncClient,
    delegation_meta,
    mint_token,
    stdio_params,
    write_jwks,
)
from domain_servers.registry import SERVERS, ServerEntry

TRANSPORTS = ["stdio", "http"]
OWNER = "user:00000000-0000-4000-8000-000000000001"
PLAYER = "user:00000000-0000-4000-8000-000000000002"
OTHER_PLAYER = "user:00000000-0000-4000-8000-000000000003"
OBSERVER = "user:00000000-0000-4000-8000-000000000004"
STRANGER = "user:00000000-0000-4000-8000-000000000005"

# Per-system probes: a write allowed only outside the lobby, and how to reach a hidden value.
PHASE_GATED = {
    "dnd5e": ("monster_spawn", {"monster_key": "goblin"}),
    "narrative": ("scene_start", {"title": "Docks"}),
}


@dataclass(frozen=True)
class Keys:
    trusted: SigningKey
    impostor: SigningKey  # same kid as trusted, different private key
    unknown: SigningKey
    jwks: str


@pytest.fixture(scope="session")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Keys:
    directory = tmp_path_factory.mktemp("keys")
    trusted = SigningKey.generate("web-2026-01")
    impostor = SigningKey(trusted.kid, SigningKey.generate().private_key)
    unknown = SigningKey.generate("not-published")
    jwks = write_jwks(directory / "jwks.json", [trusted])
    return Keys(trusted, impostor, unknown, str(jwks))


@dataclass
class Harness:
    entry: ServerEntry
    transport: str
    client: SyncClient
    keys: Keys
    counter: itertools.count = field(default_factory=itertools.count)

    def token(
        self, tool: str, campaign: str, sub: str = OWNER, base_rev: int = 0, **overrides: Any
    ) -> str:
        signer = overrides.pop("signer", self.keys.trusted)
        claims: dict[str, Any] = {"audience": self.entry.audience, "scope": [tool]}
        claims.update(overrides)
        return mint_token(signer, sub=sub, campaign=campaign, base_rev=base_rev, **claims)

    def call(
        self,
        tool: str,
        campaign: str,
        args: dict[str, Any] | None = None,
        *,
        sub: str = OWNER,
        base_rev: int | None = None,
        token: str | None = None,
        meta: dict[str, Any] | None = None,
        **token_overrides: Any,
    ):
        arguments = {"campaign_id": campaign, **(args or {})}
        if base_rev is None:
            base_rev = arguments.get("expected_revision", 0)
        if token is None:
            token = self.token(tool, campaign, sub=sub, base_rev=base_rev, **token_overrides)
        full_meta = delegation_meta(token, **(meta or {}))
        return self.client.call(tool, arguments, full_meta)

    def key(self) -> str:
        return f"key-{next(self.counter)}-{uuid.uuid4().hex[:8]}"

    def write(
        self,
        tool: str,
        campaign: str,
        revision: int,
        args: dict[str, Any] | None = None,
        *,
        sub: str = OWNER,
        key: str | None = None,
        **kw: Any,
    ):
        arguments = {
            **(args or {}),
            "expected_revision": revision,
            "idempotency_key": key or self.key(),
        }
        return self.call(tool, campaign, arguments, sub=sub, **kw)

    def revision(self, campaign: str) -> int:
        result = self.call("campaign_get", campaign)
        assert not result.is_error, result.structured_content
        return result.structured_content["authority_revision"]

    def new_campaign(self, seed: str | None = None, members: bool = True) -> str:
        """A fresh campaign with owner, player, other player and observer; phase lobby."""
        campaign = f"c-{uuid.uuid4().hex[:12]}"
        args: dict[str, Any] = {"name": "Conformance"}
        if seed:
            args["random_seed"] = seed
        result = self.write("campaign_create", campaign, 0, args)
        assert not result.is_error, result.structured_content
        if members:
            revision = 1
            for principal, role in (
                (PLAYER, "player"),
                (OTHER_PLAYER, "player"),
                (OBSERVER, "observer"),
            ):
                granted = self.write(
                    "member_grant", campaign, revision, {"principal": principal, "role": role}
                )
                assert not granted.is_error, granted.structured_content
                revision += 1
        return campaign


@pytest.fixture(
    scope="module",
    params=[(s, t) for s in sorted(SERVERS) for t in TRANSPORTS],
    ids=lambda p: f"{p[0]}-{p[1]}",
)
def harness(request: pytest.FixtureRequest, keys: Keys, tmp_path_factory: pytest.TempPathFactory):
    system_id, transport = request.param
    entry = SERVERS[system_id]
    db = f"sqlite:///{tmp_path_factory.mktemp(system_id)}/domain.sqlite3"
    process = None
    if transport == "http":
        process = HttpServerProcess(entry.module, db, keys.jwks)
        client = SyncClient(process.url)
    else:
        client = SyncClient(stdio_params(entry.module, db, keys.jwks))
    try:
        yield Harness(entry, transport, client, keys)
    finally:
        client.close()
        if process is not None:
            process.stop()


def error_of(result) -> dict[str, Any]:
    assert result.is_error, result.structured_content
    assert set(result.structured_content) == {"error"}
    error = result.structured_content["error"]
    assert set(error) == {"code", "message", "retryable", "recovery"}
    return error


def now() -> int:
    return int(time.time())
