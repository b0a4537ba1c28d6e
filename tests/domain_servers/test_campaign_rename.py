"""campaign_rename: the owner or a GM renames the campaign on the rules server, whose
campaign_get (what a game master's model reads) then names it so."""

from __future__ import annotations

import pytest

from tests.domain_servers.conftest import GM, PLAYER, Game


@pytest.fixture(params=["dnd", "narrative"])
def game(request: pytest.FixtureRequest) -> Game:
    return request.getfixturevalue(request.param)


def _name(game: Game) -> str:
    return game.read("campaign_get")["campaign"]["name"]


def test_the_gm_renames_the_campaign_and_campaign_get_names_it_so(game: Game) -> None:
    revision = game.revision

    renamed = game.write("campaign_rename", {"name": "  The Long Night\n"})

    assert renamed["campaign"]["name"] == "The Long Night"
    assert renamed["previous_name"] == "Game"
    assert renamed["receipt"] == {
        "authority_revision": revision + 1,
        "previous_revision": revision,
        "changed_scopes": ["campaign"],
        "entity_ids": ["game"],
        "audience": "public",
        "idempotency_key": f"k{revision}",
    }
    assert _name(game) == "The Long Night"
    assert game.read("campaign_get")["authority_revision"] == revision + 1


def test_a_player_may_not_rename_the_campaign_and_nothing_changes(game: Game) -> None:
    revision = game.revision

    error = game.fail("campaign_rename", {"name": "Mine now"}, PLAYER)

    assert (error["code"], error["message"]) == (
        "authorization_denied",
        "role player may not call campaign_rename",
    )
    assert _name(game) == "Game"
    assert game.read("campaign_get")["authority_revision"] == revision


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (" \t\n", "the name must not be blank"),
        ("W" * 121, "arguments.name is longer than 120 characters"),
        (
            "Gr\x07ey",
            "arguments.name holds the control character U+0007; it must be one line of text",
        ),
        ("", "arguments.name must not be empty"),
    ],
    ids=["blank", "too-long", "control", "empty"],
)
def test_a_name_creation_refuses_is_refused_and_nothing_changes(
    game: Game, name: str, message: str
) -> None:
    revision = game.revision

    error = game.fail("campaign_rename", {"name": name})

    assert (error["code"], error["message"]) == ("invalid_request", message)
    assert _name(game) == "Game"
    assert game.read("campaign_get")["authority_revision"] == revision


def test_a_rename_is_revision_checked(game: Game) -> None:
    error = game.call(
        "campaign_rename",
        {"name": "Late", "expected_revision": game.revision - 1, "idempotency_key": "late"},
    ).structured_content["error"]

    assert error["code"] == "stale_revision"
    assert _name(game) == "Game"


def test_a_retried_rename_replays_and_a_reused_key_for_another_name_conflicts(game: Game) -> None:
    args = {"name": "Dawn", "expected_revision": game.revision, "idempotency_key": "rename-1"}
    first = game.call("campaign_rename", args)
    game.revision += 1
    game.write("dice_roll", {"expression": "1d4"})

    again = game.call("campaign_rename", args)
    other = game.call("campaign_rename", {**args, "name": "Dusk"})

    assert again.meta["idempotent_replay"] is True
    assert again.structured_content == first.structured_content
    assert other.structured_content["error"]["code"] == "idempotency_conflict"
    assert _name(game) == "Dawn"


def test_the_campaign_can_be_renamed_in_any_phase(game: Game) -> None:
    game.write("phase_set", {"phase": "play"})

    game.write("campaign_rename", {"name": "Midgame"}, GM)

    assert _name(game) == "Midgame"
