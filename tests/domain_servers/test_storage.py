"""Storage outcomes on both dialects: the jti claim, CAS, idempotency record and event log."""

from __future__ import annotations

import time
import uuid
from dataclasses import replace

import pytest

from domain_servers.common.storage import PURGE_EVERY, Storage, WriteRecord


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request, tmp_path):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/storage.sqlite3"
    else:
        url = request.getfixturevalue("pg_url")
    store = Storage(url)
    yield store
    store.close()


def record(campaign: str, expected: int, key: str, **changes) -> WriteRecord:
    base = WriteRecord(
        campaign_id=campaign,
        expected_revision=expected,
        creating=expected == 0,
        state={"revision_seen": expected},
        scope=f"test:{campaign}",
        key=key,
        request_hash=f"hash-{key}",
        response=f'{{"key":"{key}"}}',
        tool="dice_roll",
        requester="user:a",
        actor="host:test",
        turn=None,
        changed_scopes=["dice"],
    )
    return replace(base, **changes)


def prepare(storage: Storage, campaign: str, key: str | None, jti: str | None = None):
    now = time.time()
    return storage.prepare(
        jti or uuid.uuid4().hex, int(now) + 60, now, campaign, f"test:{campaign}", key
    )


def test_a_jti_is_used_up_once_and_the_lookup_sees_campaign_and_record(storage) -> None:
    campaign, jti = f"c-{uuid.uuid4().hex}", uuid.uuid4().hex
    assert prepare(storage, campaign, "k1", jti) == (True, None, None)
    assert prepare(storage, campaign, "k1", jti) == (False, None, None)

    assert storage.commit_write(record(campaign, 0, "k1")) == "ok"

    assert prepare(storage, campaign, "k1") == (
        True,
        (1, {"revision_seen": 0}),
        ("hash-k1", '{"key":"k1"}'),
    )
    assert prepare(storage, campaign, None) == (True, (1, {"revision_seen": 0}), None)
    assert storage.idempotency_get(f"test:{campaign}", "k1") == ("hash-k1", '{"key":"k1"}')
    assert storage.idempotency_get(f"test:{campaign}", "k2") is None


def test_stale_and_duplicate_writes_change_nothing(storage) -> None:
    campaign = f"c-{uuid.uuid4().hex}"
    assert storage.commit_write(record(campaign, 0, "k1")) == "ok"
    assert storage.commit_write(record(campaign, 1, "k2")) == "ok"

    assert storage.commit_write(record(campaign, 0, "k3")) == "stale"  # campaign exists
    assert storage.commit_write(record(campaign, 1, "k4")) == "stale"
    # The CAS applies, then the key turns out to be taken: the whole write rolls back.
    assert storage.commit_write(record(campaign, 2, "k1")) == "duplicate"

    assert storage.load(campaign) == (2, {"revision_seen": 1})
    assert storage.idempotency_get(f"test:{campaign}", "k1") == ("hash-k1", '{"key":"k1"}')
    events = storage.events_for(campaign)
    assert [(e["revision"], e["idempotency_key"]) for e in events] == [(1, "k1"), (2, "k2")]
    assert events[1]["changed_scopes"] == '["dice"]'


def test_expired_jtis_are_purged(storage) -> None:
    campaign, jti = f"c-{uuid.uuid4().hex}", uuid.uuid4().hex
    long_ago = time.time() - 3600
    assert storage.prepare(jti, int(long_ago), long_ago, campaign, "s", None)[0] is True
    for _ in range(PURGE_EVERY):
        prepare(storage, campaign, None)
    assert prepare(storage, campaign, None, jti)[0] is True


def test_only_sqlite_and_psycopg_urls_are_accepted() -> None:
    with pytest.raises(ValueError, match="unsupported database URL"):
        Storage("mysql://user@localhost/domain")
