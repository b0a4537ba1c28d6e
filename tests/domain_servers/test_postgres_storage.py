"""The --db PostgreSQL path: a real server process on a real PostgreSQL database."""

from __future__ import annotations

import uuid

from domain_servers.common.testing import (
    HttpServerProcess,
    SigningKey,
    SyncClient,
    delegation_meta,
    mint_token,
    write_jwks,
)


def test_dnd5e_on_postgres_commits_replays_and_refuses_stale(pg_url, tmp_path):
    key = SigningKey.generate("pg-key")
    jwks = write_jwks(tmp_path / "jwks.json", [key])
    server = HttpServerProcess("domain_servers.dnd5e", pg_url, jwks)
    client = SyncClient(server.url)
    user, campaign = f"user:{uuid.uuid4()}", str(uuid.uuid4())

    def call(tool, rev, **args):
        token = mint_token(
            key, audience="sagasmith-dnd5e", sub=user, campaign=campaign, scope=tool, base_rev=rev
        )
        return client.call(tool, {"campaign_id": campaign, **args}, delegation_meta(token))

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
