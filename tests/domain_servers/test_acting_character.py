"""Whose character a player acts as: only one they control, and when the delegation names a
character, only that one, on every tool that acts for a character."""

from __future__ import annotations

from typing import Any

import pytest

from tests.domain_servers.conftest import OTHER, PLAYER, Game


def _two_heroes(dnd: Game) -> tuple[str, str, str]:
    """Ash and Bryn, both the player's; Cael, the other player's; in the play phase."""
    ids = [
        dnd.write("character_create", {"name": name, "template": "fighter"}, sub=sub)["character"][
            "id"
        ]
        for name, sub in (("Ash", PLAYER), ("Bryn", PLAYER), ("Cael", OTHER))
    ]
    dnd.write("phase_set", {"phase": "play"})
    return ids[0], ids[1], ids[2]


# Each tool with the arguments that make it act for `them`, given `mine` (another character of
# the player's).
ACTING: dict[str, Any] = {
    "ability_check": lambda mine, them: {"character_id": them, "skill": "athletics", "dc": 10},
    "saving_throw": lambda mine, them: {"character_id": them, "ability": "dex", "dc": 10},
    "attack": lambda mine, them: {"attacker_id": them, "target_id": mine},
    "heal": lambda mine, them: {"healer_id": them, "target_id": mine},
    "temp_hp_grant": lambda mine, them: {"target_id": them, "amount": 5},
    "stand_up": lambda mine, them: {"character_id": them},
    "death_save": lambda mine, them: {"character_id": them},
    "spell_cast": lambda mine, them: {"caster_id": them, "target_id": mine, "spell": "cure_wounds"},
    "short_rest": lambda mine, them: {"character_id": them, "dice": 1},
}


def _refused(dnd: Game, tool: str, args: dict[str, Any], sub: str, **claims: Any) -> dict:
    revision = dnd.revision
    result = dnd.call(
        tool, {**args, "expected_revision": revision, "idempotency_key": f"try-{tool}"}, sub,
        **claims,
    )  # fmt: skip
    assert result.is_error, result.structured_content
    assert dnd.domain.storage.load(dnd.campaign)[0] == revision  # a refusal commits nothing
    return result.structured_content["error"]


@pytest.mark.parametrize("tool", sorted(ACTING))
def test_a_player_never_acts_as_another_players_character(dnd: Game, tool: str) -> None:
    ash, _bryn, cael = _two_heroes(dnd)
    error = _refused(dnd, tool, ACTING[tool](ash, cael), PLAYER)
    assert (error["code"], error["message"]) == (
        "authorization_denied",
        "the requester does not control Cael",
    )
    # Not even when the delegation names that character.
    error = _refused(dnd, tool, ACTING[tool](ash, cael), PLAYER, character=cael)
    assert error["message"] == "the requester does not control Cael"


@pytest.mark.parametrize("tool", sorted(ACTING))
def test_a_delegation_naming_one_character_does_not_act_for_the_players_other(
    dnd: Game, tool: str
) -> None:
    ash, bryn, _cael = _two_heroes(dnd)
    error = _refused(dnd, tool, ACTING[tool](ash, bryn), PLAYER, character=ash)
    assert (error["code"], error["message"]) == (
        "authorization_denied",
        "the delegation acts for Ash, not Bryn",
    )


def test_a_narrative_player_updates_only_the_character_the_delegation_names(
    narrative: Game,
) -> None:
    mine, other, theirs = (
        narrative.write("character_create", {"name": name}, sub=sub)["character"]["id"]
        for name, sub in (("Ash", PLAYER), ("Bryn", PLAYER), ("Cael", OTHER))
    )
    narrative.write("phase_set", {"phase": "play"})
    update = {"add_tags": ["brave"]}

    def refused(char_id: str, **claims: Any) -> str:
        result = narrative.call(
            "character_update",
            {**update, "character_id": char_id, "expected_revision": narrative.revision,
             "idempotency_key": f"u-{char_id}-{len(claims)}"},
            PLAYER,
            **claims,
        )  # fmt: skip
        assert result.is_error, result.structured_content
        assert result.structured_content["error"]["code"] == "authorization_denied"
        return result.structured_content["error"]["message"]

    assert refused(theirs) == "the requester does not control Cael"
    assert refused(theirs, character=theirs) == "the requester does not control Cael"
    assert refused(other, character=mine) == "the delegation does not act for Bryn"
    assert refused(mine, character="") == "the delegation does not act for Ash"
    updated = narrative.write(
        "character_update", {**update, "character_id": mine}, sub=PLAYER, character=mine
    )
    assert updated["character"]["tags"] == ["brave"]
