"""dnd5e: combat_status says how large the grid is, so a move can stay on it."""

from __future__ import annotations

import asyncio

from tests.domain_servers.conftest import PLAYER, Game


def _start(dnd: Game, goblins: int) -> dict:
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)[
        "character"
    ]["id"]
    dnd.write("phase_set", {"phase": "play"})
    ids = [
        dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
        for _ in range(goblins)
    ]
    return dnd.write("combat_start", {"participant_ids": [hero, *ids]})["combat"]


def test_combat_status_reports_the_grid_width_and_height(dnd: Game) -> None:
    _start(dnd, goblins=6)

    combat = dnd.read("combat_status")["combat"]

    # Twelve columns; one row per combatant plus one, and at least six.
    assert combat["grid"] == {"width": 12, "height": 8}
    assert dnd.read("combat_status", sub=PLAYER)["combat"]["grid"] == {"width": 12, "height": 8}


def test_combat_start_reports_the_grid_too(dnd: Game) -> None:
    assert _start(dnd, goblins=1)["grid"] == {"width": 12, "height": 6}


def test_combat_status_output_schema_describes_the_grid(dnd: Game) -> None:
    tools = {t.name: t for t in asyncio.run(dnd.domain._on_list_tools(None, None)).tools}

    combat = tools["combat_status"].output_schema["properties"]["combat"]
    assert "grid" in combat["required"]
    assert combat["properties"]["grid"] == {
        "type": "object",
        "description": "The grid's size in squares; x runs 0..width-1 and y 0..height-1.",
        "required": ["width", "height"],
        "properties": {"width": {"type": "integer"}, "height": {"type": "integer"}},
    }
