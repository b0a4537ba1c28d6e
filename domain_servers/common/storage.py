"""Per-server storage: campaign documents, idempotency records, used `jti`s, an event log.

SQLAlchemy creates the schema and the connections (SQLite by default, PostgreSQL with psycopg 3
by URL). The per-call statements run on the DB-API connection as SQL text written once per
dialect: SQLAlchemy's per-statement work cost more than the statements themselves.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import anyio.to_thread
from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    select,
)
from sqlalchemy.engine import Engine, make_url

# Fault injection for the crash test: the server pauses inside the write transaction so the
# test can kill it there. Unset in every real deployment.
FAULT_ENV = "SAGASMITH_DOMAIN_FAULT"

# Expired jtis are purged on every this-many-th call.
PURGE_EVERY = 500

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
    # 64-bit: a 32-bit column overflows with the tokens expiring after 2038-01-19.
    Column("exp", BigInteger, nullable=False, index=True),
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

# Statements use named placeholders in SQLite's `:name` form; `_pyformat` rewrites them for
# psycopg. One parameter dict per call feeds every statement of that call.
_PURGE_JTIS = "DELETE FROM used_jtis WHERE exp < :before"
_LOAD = "SELECT revision, state FROM campaigns WHERE id = :campaign_id"
_IDEMPOTENCY_GET = (
    "SELECT request_hash, response FROM idempotency_records WHERE scope = :scope AND key = :key"
)
_CLAIM_JTI = "INSERT INTO used_jtis (jti, exp) VALUES (:jti, :exp) ON CONFLICT DO NOTHING"
# The campaign and the idempotency record in one read; a NULL key matches no record.
_LOOKUP = """
SELECT c.revision, c.state, i.request_hash, i.response
FROM (SELECT 1) AS one
LEFT JOIN campaigns AS c ON c.id = :campaign_id
LEFT JOIN idempotency_records AS i ON i.scope = :scope AND i.key = :key
"""
_CREATE = """
INSERT INTO campaigns (id, revision, state, updated_at)
VALUES (:campaign_id, :revision, :state, :now)
ON CONFLICT DO NOTHING
"""
_CAS = """
UPDATE campaigns SET revision = :revision, state = :state, updated_at = :now
WHERE id = :campaign_id AND revision = :expected
"""
_RECORD = """
INSERT INTO idempotency_records (scope, key, request_hash, response, revision, created_at)
VALUES (:scope, :key, :request_hash, :response, :revision, :now)
ON CONFLICT DO NOTHING
"""
_EVENT = """
INSERT INTO events (
    campaign_id, revision, tool, idempotency_key, requester, actor, turn, changed_scopes, created_at
)
VALUES (
    :campaign_id, :revision, :tool, :key, :requester, :actor, :turn, :changed_scopes, :now
)
"""

# PostgreSQL: every statement is a network round trip, so each step of a call is one statement.
# The jti claim shares a statement with the read and, in autocommit, commits before any write
# begins. The write's CTEs add the record only where the campaign step applied and the event
# only where the record was new; the two counts say which step stopped it.
_PG_CLAIM_AND_LOOKUP = """
WITH claimed AS (
    INSERT INTO used_jtis (jti, exp) VALUES (:jti, :exp) ON CONFLICT DO NOTHING RETURNING jti
)
SELECT EXISTS (SELECT FROM claimed), c.revision, c.state, i.request_hash, i.response
FROM (SELECT 1) AS one
LEFT JOIN campaigns AS c ON c.id = :campaign_id
LEFT JOIN idempotency_records AS i ON i.scope = :scope AND i.key = :key
"""
# `{apply}` is the campaign step: the CAS update, or the insert that creates the campaign.
_PG_WRITE = """
WITH applied AS (
    {apply}
    RETURNING id
), recorded AS (
    INSERT INTO idempotency_records (scope, key, request_hash, response, revision, created_at)
    SELECT :scope, :key, :request_hash, :response, :revision, :now FROM applied
    ON CONFLICT DO NOTHING
    RETURNING key
), logged AS (
    INSERT INTO events (
        campaign_id, revision, tool, idempotency_key, requester, actor, turn, changed_scopes,
        created_at
    )
    SELECT :campaign_id, :revision, :tool, :key, :requester, :actor, :turn, :changed_scopes, :now
    FROM recorded
)
SELECT (SELECT count(*) FROM applied), (SELECT count(*) FROM recorded)
"""


def _pyformat(sql: str) -> str:
    return re.sub(r":(\w+)", r"%(\1)s", sql)


Row = tuple[Any, ...]


class _SQLite:
    """In process, a statement costs microseconds: one per step."""

    purge_jtis = _PURGE_JTIS
    load = _LOAD
    idempotency_get = _IDEMPOTENCY_GET

    def claim_and_lookup(self, conn: Any, params: dict[str, Any]) -> tuple[bool, Row]:
        fresh = conn.execute(_CLAIM_JTI, params).rowcount == 1
        return fresh, conn.execute(_LOOKUP, params).fetchone()

    def write(self, conn: Any, params: dict[str, Any], creating: bool) -> str:
        if conn.execute(_CREATE if creating else _CAS, params).rowcount != 1:
            return "stale"
        if conn.execute(_RECORD, params).rowcount != 1:
            return "duplicate"
        conn.execute(_EVENT, params)
        return "ok"


class _PostgreSQL:
    """Over the network, a statement is a round trip: one per call step (see the SQL)."""

    purge_jtis = _pyformat(_PURGE_JTIS)
    load = _pyformat(_LOAD)
    idempotency_get = _pyformat(_IDEMPOTENCY_GET)
    _claim_and_lookup = _pyformat(_PG_CLAIM_AND_LOOKUP)
    _create_write = _pyformat(_PG_WRITE.format(apply=_CREATE))
    _cas_write = _pyformat(_PG_WRITE.format(apply=_CAS))

    def claim_and_lookup(self, conn: Any, params: dict[str, Any]) -> tuple[bool, Row]:
        fresh, *row = conn.execute(self._claim_and_lookup, params).fetchone()
        return fresh, tuple(row)

    def write(self, conn: Any, params: dict[str, Any], creating: bool) -> str:
        statement = self._create_write if creating else self._cas_write
        applied, recorded = conn.execute(statement, params).fetchone()
        if applied != 1:
            return "stale"
        return "ok" if recorded == 1 else "duplicate"


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
        parsed = make_url(url)
        backend = parsed.get_backend_name()
        if (backend, parsed.get_driver_name()) not in {
            ("sqlite", "pysqlite"),
            ("postgresql", "psycopg"),
        }:
            raise ValueError(
                f"unsupported database URL {parsed!r}: use sqlite:///PATH or "
                "postgresql+psycopg://USER@HOST/NAME"
            )
        self.is_sqlite = backend == "sqlite"
        # Autocommit connections: a write opens its transaction explicitly, everything else
        # (the jti claim above all) commits as it runs.
        self.engine: Engine = create_engine(parsed, isolation_level="AUTOCOMMIT")
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        if not self.is_sqlite:
            _widen_jti_exp(self.engine)
        self._sql = _SQLite() if self.is_sqlite else _PostgreSQL()
        # SQLite: one connection, checked out for good; the event loop runs one call at a time.
        self._sqlite = self.engine.raw_connection() if self.is_sqlite else None
        self._checkpointer: _Checkpointer | None = None
        if self._sqlite is not None:
            # A checkpoint inside a commit would stall the event loop on disk syncs for
            # milliseconds; a thread of its own does them instead.
            self._sqlite.driver_connection.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = _Checkpointer(self.engine)
        self._jti_inserts = 0
        fault = os.environ.get(FAULT_ENV, "")
        self._pause_in_write = float(fault.split(":", 1)[1]) if fault.startswith("pause:") else 0.0

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        # SQLite calls are sub-millisecond and a single event loop serializes them; PostgreSQL
        # round trips go to a worker thread so they never stall the loop.
        if self.is_sqlite:
            return fn(*args)
        return await anyio.to_thread.run_sync(fn, *args)

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        if self._sqlite is not None:
            yield self._sqlite.driver_connection
            return
        pooled = self.engine.raw_connection()
        try:
            yield pooled.driver_connection
        except BaseException:
            if pooled.driver_connection.closed:  # the server went away: never reuse it
                pooled.invalidate()
            raise
        finally:
            pooled.close()

    def prepare(
        self, jti: str, exp: int, now: float, campaign_id: str, scope: str, key: str | None
    ) -> tuple[bool, tuple[int, dict[str, Any]] | None, tuple[str, str] | None]:
        """Use up the `jti` (committed at once, whatever follows), then read the campaign and
        any idempotency record for `key`."""
        self._jti_inserts += 1
        params = {"jti": jti, "exp": exp, "campaign_id": campaign_id, "scope": scope, "key": key}
        with self._connection() as conn:
            if self._jti_inserts % PURGE_EVERY == 1:
                conn.execute(self._sql.purge_jtis, {"before": int(now) - 120})
            fresh, (revision, state, request_hash, response) = self._sql.claim_and_lookup(
                conn, params
            )
        loaded = None if revision is None else (revision, json.loads(state))
        stored = None if request_hash is None else (request_hash, response)
        return fresh, loaded, stored

    def load(self, campaign_id: str) -> tuple[int, dict[str, Any]] | None:
        """The campaign's revision and state document, or None."""
        with self._connection() as conn:
            row = conn.execute(self._sql.load, {"campaign_id": campaign_id}).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def idempotency_get(self, scope: str, key: str) -> tuple[str, str] | None:
        with self._connection() as conn:
            row = conn.execute(self._sql.idempotency_get, {"scope": scope, "key": key}).fetchone()
        return None if row is None else (row[0], row[1])

    def commit_write(self, record: WriteRecord) -> str:
        """CAS + state + idempotency record + event in one transaction.

        Returns "ok", "stale" (the revision moved) or "duplicate" (a concurrent call with the
        same idempotency key won).
        """
        params = {
            "campaign_id": record.campaign_id,
            "expected": record.expected_revision,
            "revision": record.expected_revision + 1,
            "state": json.dumps(record.state, separators=(",", ":"), sort_keys=True),
            "now": time.time(),
            "scope": record.scope,
            "key": record.key,
            "request_hash": record.request_hash,
            "response": record.response,
            "tool": record.tool,
            "requester": record.requester,
            "actor": record.actor,
            "turn": record.turn,
            "changed_scopes": json.dumps(record.changed_scopes),
        }
        with self._connection() as conn:
            conn.execute("BEGIN")
            try:
                status = self._sql.write(conn, params, record.creating)
                if status != "ok":
                    conn.rollback()
                    return status
                if self._pause_in_write:
                    print("FAULT: paused inside write transaction", file=sys.stderr, flush=True)
                    time.sleep(self._pause_in_write)
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
        if self._checkpointer is not None:
            self._checkpointer.stop()
        if self._sqlite is not None:
            self._sqlite.close()
        self.engine.dispose()


CHECKPOINT_THREAD = "sqlite-checkpoint"


class _Checkpointer:
    """Copies the SQLite write-ahead log into the database file from a daemon thread (the
    driver releases the GIL while it syncs), so commits on the call path never do it."""

    INTERVAL = 0.5

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=CHECKPOINT_THREAD, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        raw = self._engine.raw_connection()
        try:
            while not self._stop.wait(self.INTERVAL):
                # PASSIVE never blocks the writer; what it cannot copy now waits for the next.
                raw.driver_connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            raw.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)


def _widen_jti_exp(engine: Engine) -> None:
    """A database created before `used_jtis.exp` was 64-bit gets it widened: `create_all` makes
    only missing tables, and there are no migrations. The table holds only unexpired jtis (a few
    minutes' worth), so the rewrite is short; a server starting beside another may run it twice,
    which is harmless. SQLite's INTEGER is already 64-bit."""
    with engine.connect() as conn:
        data_type = conn.exec_driver_sql(
            "SELECT data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = 'used_jtis' "
            "AND column_name = 'exp'"
        ).scalar()
        if data_type == "integer":
            conn.exec_driver_sql("ALTER TABLE used_jtis ALTER COLUMN exp TYPE BIGINT")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL + NORMAL: a process crash never loses a commit; only power loss could drop the last.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
