"""dnd5e: a check or save says whether its subject is a player character or a monster, so
whoever shows it knows whether its natural die may be shown to the table (a monster's natural
roll with the total gives away its stat block's modifier)."""

from __future__ import annotations

import asyncio

import pytest

from tests.domain_servers.conftest import PLAYER, Game


def _goblin(game: Game) -> str:
    return game.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]


@pytest.mark.parametrize("tool", ["ability_check", "saving_throw"])
def test_a_player_characters_check_names_its_subject_a_pc(dnd: Game, tool: str) -> None:
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    dnd.write("phase_set", {"phase": "play"})
    rolled = dnd.write(
        tool, {"character_id": hero["character"]["id"], "ability": "str", "dc": 10}, sub=PLAYER
    )
    assert rolled["character_kind"] == "pc"
    assert rolled["total"] == rolled["natural"] + rolled["ability_modifier"] + rolled["proficiency"]


@pytest.mark.parametrize("tool", ["ability_check", "saving_throw"])
def test_a_monsters_check_names_its_subject_a_monster_in_every_view(dnd: Game, tool: str) -> None:
    dnd.write("phase_set", {"phase": "play"})
    goblin = _goblin(dnd)
    full = dnd.write(tool, {"character_id": goblin, "ability": "dex", "dc": 12})
    assert (full["character_kind"], full["ability_modifier"]) == ("monster", 2)
    shown = dnd.write(tool, {"character_id": goblin, "ability": "dex", "dc": 12}, view="public")
    assert shown["character_kind"] == "monster"
    assert "natural" not in shown and "ability_modifier" not in shown


@pytest.mark.parametrize("tool", ["ability_check", "saving_throw"])
def test_the_check_output_schema_declares_the_subjects_kind(dnd: Game, tool: str) -> None:
    tools = {t.name: t for t in asyncio.run(dnd.domain._on_list_tools(None, None)).tools}
    schema = tools[tool].output_schema
    assert schema["properties"]["character_kind"] == {
        "type": "string",
        "enum": ["pc", "monster"],
        "description": "Whether the character who rolled is a player character or a monster.",
    }
    # Not required: a result stored before the field was added still replays as it was.
    assert "character_kind" not in schema["required"]
