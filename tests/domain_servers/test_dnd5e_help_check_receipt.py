"""dnd5e: an ability check that uses up a Help changes the combat (the Help is spent), so its
receipt names `combat` and hosts refresh what they built from combat_status. Checked against
a real server process over HTTP."""

from __future__ import annotations

from typing import Any

import pytest

from domain_servers.common.testing import (
    HttpServerProcess,
    SigningKey,
    SyncClient,
    delegation_meta,
    mint_token,
    write_jwks,
)

MODULE = "domain_servers.dnd5e"
AUDIENCE = "sagasmith-dnd5e"
OWNER = "user:00000000-0000-4000-8000-000000000001"
CAMPAIGN = "helped-check"


class Table:
    """The owner's writes to one campaign, each with a fresh token and the current revision."""

    def __init__(self, client: SyncClient, key: SigningKey) -> None:
        self.client, self.key, self.revision = client, key, 0

    def write(self, tool: str, **args: Any) -> dict[str, Any]:
        token = mint_token(
            self.key,
            audience=AUDIENCE,
            sub=OWNER,
            campaign=CAMPAIGN,
            scope=[tool],
            base_rev=self.revision,
        )
        arguments = {
            "campaign_id": CAMPAIGN,
            **args,
            "expected_revision": self.revision,
            "idempotency_key": f"k{self.revision}",
        }
        result = self.client.call(tool, arguments, delegation_meta(token))
        assert not result.is_error, result.structured_content
        self.revision += 1
        return result.structured_content


@pytest.fixture
def table(tmp_path):
    key = SigningKey.generate("web-help")
    jwks = str(write_jwks(tmp_path / "jwks.json", [key]))
    server = HttpServerProcess(MODULE, f"sqlite:///{tmp_path}/help.sqlite3", jwks)
    client = SyncClient(server.url)
    try:
        yield Table(client, key)
    finally:
        client.close()
        server.stop()


def test_a_check_that_uses_up_a_help_names_combat_in_its_receipt(table: Table) -> None:
    table.write("campaign_create", name="Helped")
    ids = [
        table.write("character_create", name=name, template="fighter")["character"]["id"]
        for name in ("Ash", "Bram")
    ]
    table.write("phase_set", phase="play")
    started = table.write("combat_start", participant_ids=ids)
    helper = started["combat"]["current"]
    (ally,) = [i for i in ids if i != helper]
    table.write("combat_action", character_id=helper, action="help", ally_id=ally)

    unhelped = table.write("ability_check", character_id=helper, skill="athletics", dc=10)
    helped = table.write("ability_check", character_id=ally, skill="athletics", dc=10)

    assert unhelped["receipt"]["changed_scopes"] == [f"character:{helper}"]
    assert helped["mode"] == "advantage"
    assert helped["receipt"]["changed_scopes"] == [f"character:{ally}", "combat"]
