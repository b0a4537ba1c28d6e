"""Process-level guarantees: no keys, non-loopback refusal, a crash mid-write commits nothing."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from domain_servers.common.delegation import DelegationVerifier
from domain_servers.common.storage import FAULT_ENV, Storage
from domain_servers.common.testing import (
    REPO_ROOT,
    HttpServerProcess,
    SyncClient,
    delegation_meta,
    mint_token,
)
from domain_servers.registry import SERVERS
from tests.domain_contract.conftest import OWNER, Keys

SYSTEMS = sorted(SERVERS)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_non_loopback_http_without_keys_refuses_to_start(system_id: str, tmp_path) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            SERVERS[system_id].module,
            "--transport",
            "http",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            "--db",
            f"sqlite:///{tmp_path}/x.sqlite3",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert completed.returncode == 2
    assert "refusing to bind 0.0.0.0" in completed.stderr
    assert completed.stdout == ""


@pytest.mark.parametrize("system_id", SYSTEMS)
async def test_server_without_keys_refuses_every_call(system_id: str, keys: Keys, tmp_path) -> None:
    import importlib

    module_name, attr = SERVERS[system_id].factory.split(":")
    factory = getattr(importlib.import_module(module_name), attr)
    storage = Storage(f"sqlite:///{tmp_path}/nokeys.sqlite3")
    domain = factory(storage, DelegationVerifier({}, SERVERS[system_id].audience))
    token = mint_token(
        keys.trusted,
        audience=SERVERS[system_id].audience,
        sub=OWNER,
        campaign="c1",
        scope=["campaign_create"],
    )
    try:
        result = await domain.call(
            "campaign_create",
            {"campaign_id": "c1", "name": "x", "expected_revision": 0, "idempotency_key": "k"},
            delegation_meta(token),
        )
        assert storage.load("c1") is None
    finally:
        storage.close()
    assert result.is_error
    assert result.structured_content["error"]["code"] == "authorization_denied"
    assert "no delegation keys" in result.structured_content["error"]["message"]


def _write(
    client: SyncClient,
    keys: Keys,
    audience: str,
    tool: str,
    campaign: str,
    revision: int,
    key: str,
    args: dict,
):
    token = mint_token(
        keys.trusted,
        audience=audience,
        sub=OWNER,
        campaign=campaign,
        scope=[tool],
        base_rev=revision,
    )
    return client.call(
        tool,
        {"campaign_id": campaign, **args, "expected_revision": revision, "idempotency_key": key},
        delegation_meta(token),
    )


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_killing_the_server_inside_a_write_commits_nothing(
    system_id: str, keys: Keys, tmp_path
) -> None:
    entry = SERVERS[system_id]
    db = f"sqlite:///{tmp_path}/crash.sqlite3"
    setup = HttpServerProcess(entry.module, db, keys.jwks)
    client = SyncClient(setup.url)
    created = _write(
        client, keys, entry.audience, "campaign_create", "crash", 0, "create", {"name": "Crash"}
    )
    assert not created.is_error
    client.close()
    setup.stop()

    faulty = HttpServerProcess(entry.module, db, keys.jwks, env={FAULT_ENV: "pause:60"})
    client = SyncClient(faulty.url, timeout=10)
    outcome: dict = {}

    def doomed() -> None:
        try:
            outcome["result"] = _write(
                client,
                keys,
                entry.audience,
                "dice_roll",
                "crash",
                1,
                "doomed",
                {"expression": "1d20"},
            )
        except Exception as exc:  # the connection dies with the server
            outcome["error"] = exc

    thread = threading.Thread(target=doomed)
    thread.start()
    line = faulty.process.stderr.readline()
    deadline = time.monotonic() + 20
    while "FAULT" not in line and time.monotonic() < deadline:
        line = faulty.process.stderr.readline()
    assert "paused inside write transaction" in line
    faulty.kill()
    thread.join(20)
    assert "result" not in outcome
    client.close()

    restarted = HttpServerProcess(entry.module, db, keys.jwks)
    client = SyncClient(restarted.url)
    try:
        token = mint_token(
            keys.trusted,
            audience=entry.audience,
            sub=OWNER,
            campaign="crash",
            scope=["campaign_get"],
        )
        view = client.call("campaign_get", {"campaign_id": "crash"}, delegation_meta(token))
        assert view.structured_content["authority_revision"] == 1
        assert view.structured_content["campaign"]["random_stream"]["position"] == 0
        # The key was never recorded: the retry executes (not a replay) and commits once.
        retry = _write(
            client, keys, entry.audience, "dice_roll", "crash", 1, "doomed", {"expression": "1d20"}
        )
        assert not retry.is_error
        assert retry.meta["idempotent_replay"] is False
        assert retry.structured_content["receipt"]["authority_revision"] == 2
    finally:
        client.close()
        restarted.stop()
