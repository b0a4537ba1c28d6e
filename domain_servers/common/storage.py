"""Per-server storage: campaign documents, idempotency records, used `jti`s, an event log.

SQLAlchemy Core keeps the same statements on SQLite (default) and PostgreSQL (by URL).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import anyio.to_thread
from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

# Fault injection for the crash test: the server pauses inside the write transaction so the
# test can kill it there. Unset in every real deployment.
FAULT_ENV = "SAGASMITH_DOMAIN_FAULT"

metadata = MetaData()

campaigns = Table(
    "campaigns",
    metadata,
    Column("id", String(80), primary_key=True),
    Column("revision", Integer, nullable=False),
    Column("state", Text, nullable=False),
    Column("updated_at", Float, nullable=False),
)

idempotency = Table(
    "idempotency_records",
    metadata,
    Column("scope", String(160), primary_key=True),
    Column("key", String(200), primary_key=True),
    Column("request_hash", String(64), nullable=False),
    Column("response", Text, nullable=False),
    Column("revision", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
)

used_jtis = Table(
    "used_jtis",
    metadata,
    Column("jti", String(160), primary_key=True),
    Column("exp", Integer, nullable=False, index=True),
)

events = Table(
    "events",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("campaign_id", String(80), nullable=False, index=True),
    Column("revision", Integer, nullable=False),
    Column("tool", String(80), nullable=False),
    Column("idempotency_key", String(200), nullable=False),
    Column("requester", String(160), nullable=False),
    Column("actor", String(160), nullable=False),
    Column("turn", String(160), nullable=True),
    Column("changed_scopes", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

T = TypeVar("T")

# Built once: SQLAlchemy memoizes a statement's cache key on the object, so reusing these saves
# most of the per-call statement overhead on the hot path.
_INSERT_JTI = insert(used_jtis).values(jti=bindparam("jti"), exp=bindparam("exp"))
_PURGE_JTI = delete(used_jtis).where(used_jtis.c.exp < bindparam("now"))
_LOAD = select(campaigns.c.revision, campaigns.c.state).where(campaigns.c.id == bindparam("cid"))
_IDEM_GET = select(idempotency.c.request_hash, idempotency.c.response).where(
    idempotency.c.scope == bindparam("scope"), idempotency.c.key == bindparam("key")
)
_INSERT_CAMPAIGN = insert(campaigns).values(
    id=bindparam("cid"),
    revision=bindparam("rev"),
    state=bindparam("st"),
    updated_at=bindparam("ts"),
)
_CAS = (
    update(campaigns)
    .where(campaigns.c.id == bindparam("cid"), campaigns.c.revision == bindparam("expected"))
    .values(revision=bindparam("rev"), state=bindparam("st"), updated_at=bindparam("ts"))
)
_INSERT_IDEM = insert(idempotency).values(
    scope=bindparam("scope"),
    key=bindparam("key"),
    request_hash=bindparam("hash"),
    response=bindparam("resp"),
    revision=bindparam("rev"),
    created_at=bindparam("ts"),
)
_INSERT_EVENT = insert(events).values(
    campaign_id=bindparam("cid"),
    revision=bindparam("rev"),
    tool=bindparam("tool"),
    idempotency_key=bindparam("key"),
    requester=bindparam("requester"),
    actor=bindparam("actor"),
    turn=bindparam("turn"),
    changed_scopes=bindparam("scopes"),
    created_at=bindparam("ts"),
)


@dataclass(frozen=True)
class WriteRecord:
    campaign_id: str
    expected_revision: int
    creating: bool
    state: dict[str, Any]
    scope: str
    key: str
    request_hash: str
    response: str
    tool: str
    requester: str
    actor: str
    turn: str | None
    changed_scopes: list[str]


def default_db_url(system_id: str) -> str:
    path = Path("var") / "domain_servers" / f"{system_id}.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


class Storage:
    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.engine: Engine = create_engine(url, future=True)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        self._jti_inserts = 0
        fault = os.environ.get(FAULT_ENV, "")
        self._pause_in_write = float(fault.split(":", 1)[1]) if fault.startswith("pause:") else 0.0

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        # SQLite calls are sub-millisecond and a single event loop serializes them; PostgreSQL
        # round trips go to a worker thread so they never stall the loop.
        if self.is_sqlite:
            return fn(*args)
        return await anyio.to_thread.run_sync(fn, *args)

    def prepare(
        self, jti: str, exp: int, now: float, campaign_id: str, scope: str, key: str | None
    ) -> tuple[bool, tuple[int, dict[str, Any]] | None, tuple[str, str] | None]:
        """One round trip per call: use up the `jti` (committed at once, whatever follows),
        then read the campaign and any idempotency record for `key`."""
        self._jti_inserts += 1
        with self.engine.connect() as conn:
            if self._jti_inserts % 500 == 1:
                conn.execute(_PURGE_JTI, {"now": int(now) - 120})
                conn.commit()
            try:
                conn.execute(_INSERT_JTI, {"jti": jti, "exp": exp})
                conn.commit()
                fresh = True
            except IntegrityError:
                conn.rollback()
                fresh = False
            row = conn.execute(_LOAD, {"cid": campaign_id}).first()
            stored = None
            if key is not None:
                found = conn.execute(_IDEM_GET, {"scope": scope, "key": key}).first()
                stored = None if found is None else (found.request_hash, found.response)
            conn.rollback()
        loaded = None if row is None else (row.revision, json.loads(row.state))
        return fresh, loaded, stored

    def load(self, campaign_id: str) -> tuple[int, dict[str, Any]] | None:
        """The campaign's revision and state document, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(_LOAD, {"cid": campaign_id}).first()
        return None if row is None else (row.revision, json.loads(row.state))

    def idempotency_get(self, scope: str, key: str) -> tuple[str, str] | None:
        with self.engine.connect() as conn:
            row = conn.execute(_IDEM_GET, {"scope": scope, "key": key}).first()
        return None if row is None else (row.request_hash, row.response)

    def commit_write(self, record: WriteRecord) -> str:
        """CAS + state + idempotency record + event in one transaction.

        Returns "ok", "stale" (the revision moved) or "duplicate" (a concurrent call with the
        same idempotency key won).
        """
        now = time.time()
        new_revision = record.expected_revision + 1
        state_text = json.dumps(record.state, separators=(",", ":"), sort_keys=True)
        with self.engine.connect() as conn:
            try:
                if record.creating:
                    try:
                        conn.execute(
                            _INSERT_CAMPAIGN,
                            {
                                "cid": record.campaign_id,
                                "rev": new_revision,
                                "st": state_text,
                                "ts": now,
                            },
                        )
                    except IntegrityError:
                        conn.rollback()
                        return "stale"
                else:
                    result = conn.execute(
                        _CAS,
                        {
                            "cid": record.campaign_id,
                            "expected": record.expected_revision,
                            "rev": new_revision,
                            "st": state_text,
                            "ts": now,
                        },
                    )
                    if result.rowcount != 1:
                        conn.rollback()
                        return "stale"
                if self._pause_in_write:
                    print("FAULT: paused inside write transaction", file=sys.stderr, flush=True)
                    time.sleep(self._pause_in_write)
                try:
                    conn.execute(
                        _INSERT_IDEM,
                        {
                            "scope": record.scope,
                            "key": record.key,
                            "hash": record.request_hash,
                            "resp": record.response,
                            "rev": new_revision,
                            "ts": now,
                        },
                    )
                except IntegrityError:
                    conn.rollback()
                    return "duplicate"
                conn.execute(
                    _INSERT_EVENT,
                    {
                        "cid": record.campaign_id,
                        "rev": new_revision,
                        "tool": record.tool,
                        "key": record.key,
                        "requester": record.requester,
                        "actor": record.actor,
                        "turn": record.turn,
                        "scopes": json.dumps(record.changed_scopes),
                        "ts": now,
                    },
                )
                conn.commit()
            except BaseException:
                conn.rollback()
                raise
        return "ok"

    def events_for(self, campaign_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events).where(events.c.campaign_id == campaign_id).order_by(events.c.seq)
            ).all()
        return [dict(row._mapping) for row in rows]

    def close(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL + NORMAL: a process crash never loses a commit; only power loss could drop the last.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
