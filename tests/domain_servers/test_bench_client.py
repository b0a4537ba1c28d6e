"""The benchmark's raw HTTP client gets exactly what `mcp.Client` gets from a real server."""

from __future__ import annotations

import pytest
from mcp import Client

from domain_servers.bench import ProtocolError, RawHttpClient
from domain_servers.common.testing import (
    HttpServerProcess,
    SigningKey,
    delegation_meta,
    mint_token,
    write_jwks,
)

AUDIENCE = "sagasmith-dnd5e"
OWNER = "user:raw-client-owner"


@pytest.fixture
def server(tmp_path):
    key = SigningKey.generate("raw-client")
    jwks = write_jwks(tmp_path / "jwks.json", [key])
    process = HttpServerProcess("domain_servers.dnd5e", f"sqlite:///{tmp_path}/d.sqlite3", jwks)
    yield process, key
    process.stop()


def meta(key: SigningKey, tool: str, base_rev: int = 0) -> dict:
    token = mint_token(
        key, audience=AUDIENCE, sub=OWNER, campaign="c1", scope=[tool], base_rev=base_rev
    )
    return delegation_meta(token)


async def test_raw_client_results_match_the_sdk_client(server) -> None:
    process, key = server
    roll = {"campaign_id": "c1", "expression": "2d6+3", "expected_revision": 1}
    async with RawHttpClient(process.url) as raw, Client(process.url) as sdk:
        created = await raw.call_tool(
            "campaign_create",
            {"campaign_id": "c1", "name": "Raw", "expected_revision": 0, "idempotency_key": "c"},
            meta=meta(key, "campaign_create"),
        )
        assert not created.is_error, created.structured_content
        assert created.structured_content["receipt"]["authority_revision"] == 1

        first = await raw.call_tool(
            "dice_roll", {**roll, "idempotency_key": "r"}, meta=meta(key, "dice_roll", 1)
        )
        replay = await sdk.call_tool(
            "dice_roll", {**roll, "idempotency_key": "r"}, meta=meta(key, "dice_roll", 1)
        )
        assert first.meta["idempotent_replay"] is False
        assert replay.meta["idempotent_replay"] is True
        assert replay.structured_content == first.structured_content
        assert replay.content == first.content

        views = [
            await client.call_tool(
                "campaign_get", {"campaign_id": "c1"}, meta=meta(key, "campaign_get")
            )
            for client in (raw, sdk)
        ]
        assert views[0] == views[1]
        assert views[0].structured_content["authority_revision"] == 2

        refused = await raw.call_tool("campaign_get", {"campaign_id": "c1"}, meta={})
        assert refused.is_error
        assert refused.structured_content["error"]["code"] == "authorization_denied"


async def test_raw_client_raises_on_a_json_rpc_error(server) -> None:
    process, _key = server
    async with RawHttpClient(process.url) as raw:
        with pytest.raises(ProtocolError, match="JSON-RPC error"):
            await raw.request("tools/unknown", {})
