"""PostgreSQL: a used jti's expiry is a 64-bit integer, so tokens expiring after 2038 (past a
32-bit integer) are claimed, and a database created with the 32-bit column is widened at start."""

from __future__ import annotations

import psycopg
import pytest

from domain_servers.common.storage import Storage

AFTER_2038 = 2**31 + 60  # 2038-01-19T03:15:08Z


def _connect(pg_url: str) -> psycopg.Connection:
    return psycopg.connect(
        pg_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True
    )


def _exp_type(pg_url: str) -> str:
    with _connect(pg_url) as conn:
        return conn.execute(
            "SELECT data_type FROM information_schema.columns "
            "WHERE table_name = 'used_jtis' AND column_name = 'exp'"
        ).fetchone()[0]


@pytest.fixture
def storage(pg_url):
    storage = Storage(pg_url)
    yield storage
    storage.close()


def test_a_token_expiring_after_2038_is_claimed_once(storage):
    claim = (AFTER_2038, AFTER_2038 - 100, "c", "dnd5e:c", None)

    assert storage.prepare("late-jti", *claim) == (True, None, None)
    assert storage.prepare("late-jti", *claim) == (False, None, None)


def test_a_32_bit_expiry_column_is_widened_when_the_server_starts(pg_url):
    with _connect(pg_url) as conn:
        conn.execute("DROP TABLE IF EXISTS used_jtis")
        conn.execute("CREATE TABLE used_jtis (jti VARCHAR(160) PRIMARY KEY, exp INTEGER NOT NULL)")
        conn.execute("CREATE INDEX ix_used_jtis_exp ON used_jtis (exp)")
        conn.execute("INSERT INTO used_jtis (jti, exp) VALUES ('old-jti', 2000000000)")
    assert _exp_type(pg_url) == "integer"

    storage = Storage(pg_url)
    try:
        assert _exp_type(pg_url) == "bigint"
        assert storage.prepare("old-jti", 2000000000, 1999999900, "c", "dnd5e:c", None)[0] is False
        assert storage.prepare("new-jti", AFTER_2038, AFTER_2038 - 100, "c", "dnd5e:c", None)[0]
    finally:
        storage.close()


def test_a_second_start_leaves_the_widened_column_alone(pg_url):
    Storage(pg_url).close()
    Storage(pg_url).close()

    assert _exp_type(pg_url) == "bigint"
