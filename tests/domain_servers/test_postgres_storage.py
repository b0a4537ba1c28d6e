"""The --db PostgreSQL path: a real server process on a real PostgreSQL database."""

from __future__ import annotations

import threading
import uuid

from domain_servers.common.storage import FAULT_ENV
from domain_servers.common.testing import (
    HttpServerProcess,
    SigningKey,
    SyncClient,
    delegation_meta,
    mint_token,
    write_jwks,
)


def _call(client, key, user, campaign, tool, rev, **args):
    """`tool` on the D&D server as `user`, with a token minted for this one call."""
    token = mint_token(
        key, audience="sagasmith-dnd5e", sub=user, campaign=campaign, scope=tool, base_rev=rev
    )
    return client.call(tool, {"campaign_id": campaign, **args}, delegation_meta(token))


def test_dnd5e_on_postgres_commits_replays_and_refuses_stale(pg_url, tmp_path):
    key = SigningKey.generate("pg-key")
    jwks = write_jwks(tmp_path / "jwks.json", [key])
    server = HttpServerProcess("domain_servers.dnd5e", pg_url, jwks)
    client = SyncClient(server.url)
    user, campaign = f"user:{uuid.uuid4()}", str(uuid.uuid4())

    def call(tool, rev, **args):
        return _call(client, key, user, campaign, tool, rev, **args)

    try:
        created = call(
            "campaign_create",
            0,
            name="On PG",
            random_seed="ab" * 32,
            expected_revision=0,
            idempotency_key="create-1",
        )
        assert created.structured_content["receipt"]["authority_revision"] == 1
        roll = call("dice_roll", 1, expression="3d6", expected_revision=1, idempotency_key="roll-1")
        replay = call(
            "dice_roll", 1, expression="3d6", expected_revision=1, idempotency_key="roll-1"
        )
        assert replay.structured_content == roll.structured_content
        assert replay.meta["idempotent_replay"] is True
        stale = call(
            "dice_roll", 1, expression="1d4", expected_revision=1, idempotency_key="roll-2"
        )
        assert stale.is_error is True
        assert stale.structured_content["error"]["code"] == "stale_revision"
        current = call("campaign_get", 2)
        assert current.structured_content["authority_revision"] == 2
    finally:
        client.close()
        server.stop()


def test_a_call_that_loses_a_race_to_its_own_key_gets_the_winners_result(pg_url, tmp_path):
    """Two calls with one key and one request, the second arriving while the first is inside its
    write transaction: the second's revision check fails once the first commits, and it answers
    with the first one's committed result (a replay), not stale_revision."""
    key = SigningKey.generate("pg-key")
    jwks = write_jwks(tmp_path / "jwks.json", [key])
    user, campaign = f"user:{uuid.uuid4()}", str(uuid.uuid4())

    def call(client, tool, rev, **args):
        return _call(client, key, user, campaign, tool, rev, **args)

    setup = HttpServerProcess("domain_servers.dnd5e", pg_url, jwks)
    client = SyncClient(setup.url)
    try:
        created = call(
            client, "campaign_create", 0, name="Race", random_seed="cd" * 32,
            expected_revision=0, idempotency_key="create-1",
        )  # fmt: skip
        assert created.structured_content["receipt"]["authority_revision"] == 1
    finally:
        client.close()
        setup.stop()

    server = HttpServerProcess("domain_servers.dnd5e", pg_url, jwks, env={FAULT_ENV: "pause:3"})
    first_client, second_client = SyncClient(server.url), SyncClient(server.url)
    roll = {"expression": "1d20", "expected_revision": 1, "idempotency_key": "roll-1"}
    results: dict = {}
    try:
        first = threading.Thread(
            target=lambda: results.setdefault("first", call(first_client, "dice_roll", 1, **roll))
        )
        first.start()
        line = server.process.stderr.readline()
        while "FAULT" not in line:
            assert line, "the server ended before pausing in the write"
            line = server.process.stderr.readline()
        second = call(second_client, "dice_roll", 1, **roll)
        first.join(20)
        winner = results["first"]
        assert winner.is_error is False
        assert second.is_error is False, second.structured_content
        assert (winner.meta["idempotent_replay"], second.meta["idempotent_replay"]) == (False, True)
        assert second.structured_content == winner.structured_content
        assert winner.structured_content["receipt"]["authority_revision"] == 2
        current = call(second_client, "campaign_get", 2)
        assert current.structured_content["authority_revision"] == 2
    finally:
        first_client.close()
        second_client.close()
        server.stop()
