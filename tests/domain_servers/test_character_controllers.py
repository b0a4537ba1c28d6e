"""A character's controller is a member who plays, however the character came to have one."""

from __future__ import annotations

import pytest

from tests.domain_servers.conftest import Game


@pytest.mark.parametrize("server", ["dnd", "narrative"])
@pytest.mark.parametrize(
    ("controller", "message"),
    [
        ("user:watcher", "user:watcher is not a member who plays in this campaign"),
        ("user:stranger", "user:stranger is not a member who plays in this campaign"),
    ],
)
def test_a_gm_creates_no_character_for_an_observer_or_a_stranger(
    server: str, controller: str, message: str, request: pytest.FixtureRequest
) -> None:
    game: Game = request.getfixturevalue(server)
    game.write("member_grant", {"principal": "user:watcher", "role": "observer"})
    before = game.revision
    args = {"name": "Mara", "controller": controller}
    if server == "dnd":
        args["template"] = "rogue"
    error = game.fail("character_create", args)
    assert (error["code"], error["message"]) == ("invalid_request", message)
    assert game.read("campaign_get")["authority_revision"] == before
    assert game.state()["characters"] == {}
