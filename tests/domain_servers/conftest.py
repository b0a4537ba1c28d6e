"""In-process harness for rules tests: the real pipeline without a transport."""

from __future__ import annotations

import asyncio
import itertools
import os
import uuid
from typing import Any
from urllib.parse import urlparse

import psycopg
import pytest

from domain_servers.common.delegation import DelegationVerifier
from domain_servers.common.storage import Storage
from domain_servers.common.testing import SigningKey, delegation_meta, mint_token
from domain_servers.dnd5e.server import create as create_dnd5e
from domain_servers.narrative.server import create as create_narrative
from tests.conftest import service_missing

GM = "user:gm"
PLAYER = "user:player"
OTHER = "user:other"


class ScriptedStream:
    """Stands in for RandomStream in pure rules tests: returns the scripted values."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randint(self, low: int, high: int) -> int:
        value = self.values.pop(0)
        assert low <= value <= high
        return value


class Game:
    def __init__(self, factory: Any, audience: str, db: str, seed: str) -> None:
        self.key = SigningKey.generate()
        self.audience = audience
        self.domain = factory(
            Storage(db),
            DelegationVerifier({self.key.kid: self.key.private_key.public_key()}, audience),
        )
        self.revision = 0
        self.keys = itertools.count()
        self.campaign = "game"
        self.write("campaign_create", {"name": "Game", "random_seed": seed})
        for principal, role in ((PLAYER, "player"), (OTHER, "player")):
            self.write("member_grant", {"principal": principal, "role": role})

    def call(self, tool: str, args: dict[str, Any], sub: str = GM, **claims: Any):
        token = mint_token(
            self.key,
            audience=self.audience,
            sub=sub,
            campaign=self.campaign,
            scope=[tool],
            base_rev=args.get("expected_revision", 0),
            **claims,
        )
        return asyncio.run(
            self.domain.call(tool, {"campaign_id": self.campaign, **args}, delegation_meta(token))
        )

    def write(
        self, tool: str, args: dict[str, Any] | None = None, sub: str = GM, **claims: Any
    ) -> dict[str, Any]:
        result = self.call(
            tool,
            {
                **(args or {}),
                "expected_revision": self.revision,
                "idempotency_key": f"k{next(self.keys)}",
            },
            sub,
            **claims,
        )
        if result.is_error:
            raise AssertionError(result.structured_content)
        self.revision += 1
        return result.structured_content

    def fail(self, tool: str, args: dict[str, Any] | None = None, sub: str = GM) -> dict:
        result = self.call(
            tool,
            {
                **(args or {}),
                "expected_revision": self.revision,
                "idempotency_key": f"k{next(self.keys)}",
            },
            sub,
        )
        assert result.is_error, result.structured_content
        return result.structured_content["error"]

    def read(self, tool: str, args: dict[str, Any] | None = None, sub: str = GM) -> dict:
        result = self.call(tool, args or {}, sub)
        assert not result.is_error, result.structured_content
        return result.structured_content

    def state(self) -> dict[str, Any]:
        return self.domain.storage.load(self.campaign)[1]

    def close(self) -> None:
        # A SQLite storage's checkpoint thread wakes twice a second until closed: hundreds left
        # open in one test worker starved everything else on the machine.
        self.domain.storage.close()


@pytest.fixture
def open_game(tmp_path):
    """Opens a Game on a SQLite file under tmp_path, `open_game(factory, audience, name,
    seed)`; every Game it opened is closed when the test ends."""
    games: list[Game] = []

    def open_(factory: Any, audience: str, name: str, seed: str) -> Game:
        games.append(Game(factory, audience, f"sqlite:///{tmp_path}/{name}.sqlite3", seed))
        return games[-1]

    yield open_
    for game in games:
        game.close()


@pytest.fixture
def dnd(open_game) -> Game:
    return open_game(create_dnd5e, "sagasmith-dnd5e", "d", "a" * 64)


@pytest.fixture
def narrative(open_game) -> Game:
    return open_game(create_narrative, "sagasmith-narrative", "n", "b" * 64)


@pytest.fixture(scope="module")
def pg_url():
    """A fresh PostgreSQL database (beside DATABASE_URL's) for one test module."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        service_missing("DATABASE_URL does not point at PostgreSQL")
    parsed = urlparse(url)
    name = f"domain_pg_{uuid.uuid4().hex[:8]}"
    admin = (
        f"host={parsed.hostname} port={parsed.port or 5432} user={parsed.username} dbname=postgres"
    )
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"postgresql+psycopg://{parsed.username}@{parsed.hostname}:{parsed.port or 5432}/{name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
