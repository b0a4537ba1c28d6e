"""A delegation and an idempotency key against real server processes: a `jti` is spent for
every process on the same storage (HTTP and stdio alike) and stays spent across a restart, and
one requester's idempotency key never answers another requester."""

from __future__ import annotations

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

MODULE = "domain_servers.dnd5e"
AUDIENCE = "sagasmith-dnd5e"
OWNER = "user:00000000-0000-4000-8000-000000000001"
PLAYER = "user:00000000-0000-4000-8000-000000000002"
CAMPAIGN = "replays"


@pytest.fixture
def key() -> SigningKey:
    return SigningKey.generate("web-replay")


def _token(key: SigningKey, tool: str, sub: str = OWNER, base_rev: int = 0, **kw) -> str:
    return mint_token(
        key, audience=AUDIENCE, sub=sub, campaign=CAMPAIGN, scope=[tool], base_rev=base_rev, **kw
    )


def _get(client: SyncClient, token: str):
    return client.call("campaign_get", {"campaign_id": CAMPAIGN}, delegation_meta(token))


def _write(client: SyncClient, token: str, tool: str, revision: int, key: str, **args):
    arguments = {
        "campaign_id": CAMPAIGN,
        **args,
        "expected_revision": revision,
        "idempotency_key": key,
    }
    return client.call(tool, arguments, delegation_meta(token))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_jti_is_spent_for_http_and_stdio_on_one_storage_and_across_a_restart(
    key: SigningKey, tmp_path, request: pytest.FixtureRequest, backend: str
) -> None:
    jwks = str(write_jwks(tmp_path / "jwks.json", [key]))
    if backend == "sqlite":
        db = f"sqlite:///{tmp_path}/replay.sqlite3"
    else:
        db = request.getfixturevalue("pg_url")
    http = HttpServerProcess(MODULE, db, jwks)
    over_http = SyncClient(http.url)
    over_stdio = SyncClient(stdio_params(MODULE, db, jwks))
    try:
        created = _write(
            over_http, _token(key, "campaign_create"), "campaign_create", 0, "c", name="R"
        )
        assert not created.is_error, created.structured_content

        first = _token(key, "campaign_get", jti="jti-first")
        assert not _get(over_http, first).is_error
        # The same token on the other transport, then again on the first: spent everywhere.
        for client in (over_stdio, over_http):
            refused = _get(client, first).structured_content["error"]
            assert (refused["code"], refused["message"]) == (
                "authorization_denied",
                "delegation jti was already used",
            )
        second = _token(key, "campaign_get", jti="jti-second")
        assert not _get(over_stdio, second).is_error
        assert _get(over_http, second).structured_content["error"]["message"] == (
            "delegation jti was already used"
        )
    finally:
        over_http.close()
        over_stdio.close()
        http.stop()

    restarted = HttpServerProcess(MODULE, db, jwks)
    client = SyncClient(restarted.url)
    try:
        for spent in (first, second):
            assert _get(client, spent).structured_content["error"]["message"] == (
                "delegation jti was already used"
            )
        assert not _get(client, _token(key, "campaign_get")).is_error
    finally:
        client.close()
        restarted.stop()


def test_another_requesters_idempotency_key_conflicts_and_shows_nothing_of_their_result(
    key: SigningKey, tmp_path
) -> None:
    jwks = str(write_jwks(tmp_path / "jwks.json", [key]))
    server = HttpServerProcess(MODULE, f"sqlite:///{tmp_path}/keys.sqlite3", jwks)
    client = SyncClient(server.url)
    try:
        assert not _write(
            client, _token(key, "campaign_create"), "campaign_create", 0, "c", name="R"
        ).is_error
        granted = _write(
            client,
            _token(key, "member_grant", base_rev=1),
            "member_grant",
            1,
            "grant",
            principal=PLAYER,
            role="player",
        )
        assert not granted.is_error, granted.structured_content
        mine = _write(
            client, _token(key, "dice_roll", base_rev=2), "dice_roll", 2, "roll", expression="1d20"
        )
        assert mine.structured_content["rolled_by"] == OWNER

        # The player sends the owner's key with the owner's very request, at the owner's
        # revision and at the current one: a conflict, never the owner's stored answer.
        for revision in (2, 3):
            theirs = _write(
                client,
                _token(key, "dice_roll", sub=PLAYER, base_rev=revision),
                "dice_roll",
                revision,
                "roll",
                expression="1d20",
            )
            assert theirs.is_error
            assert theirs.structured_content == {
                "error": {
                    "code": "idempotency_conflict",
                    "message": "idempotency key 'roll' was already used for a different request",
                    "retryable": False,
                    "recovery": "use a new idempotency key for a different request",
                }
            }
        # The same key on another tool is no replay of the roll either.
        other_tool = _write(
            client,
            _token(key, "phase_set", base_rev=3),
            "phase_set",
            3,
            "roll",
            phase="play",
        )
        assert other_tool.structured_content["error"]["code"] == "idempotency_conflict"
        # Nothing was written by the refusals; the owner's own retry still replays.
        again = _write(
            client, _token(key, "dice_roll", base_rev=2), "dice_roll", 2, "roll", expression="1d20"
        )
        assert again.meta["idempotent_replay"] is True
        assert again.structured_content == mine.structured_content
        view = _get(client, _token(key, "campaign_get"))
        assert view.structured_content["authority_revision"] == 3
    finally:
        client.close()
        server.stop()
