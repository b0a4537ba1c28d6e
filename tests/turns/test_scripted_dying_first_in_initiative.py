"""Combat that starts with a character at 0 HP first in initiative says what its first turn
holds, as a turn handed to it later would: a dying one's is a death save, a stable one's not."""

from __future__ import annotations

from typing import Any

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, ToolOutcome, TurnContext
from tests.turns.test_scripted_conditions import _combatant


def _started(conditions: list[str]) -> list[str]:
    """The GM starts combat against the goblin; Ilsa, at 0 HP with `conditions`, goes first."""
    ilsa = {"id": "pc-1", "name": "Ilsa", "kind": "pc", "status": "down", "conditions": conditions,
            "hp": {"current": 0, "max": 12}}  # fmt: skip
    goblin = {"id": "mon-2", "name": "Goblin", "kind": "monster", "monster_key": "goblin",
              "hp": {"current": 7, "max": 7}}  # fmt: skip
    views = {"pc-1": ilsa, "mon-2": goblin}
    order = [
        {**_combatant("pc-1", "Ilsa", "pc", initiative=14), "character": ilsa},
        {**_combatant("mon-2", "Goblin", "monster", initiative=9), "character": goblin},
    ]
    results: dict[str, Any] = {
        "campaign_get": {"campaign": {"character_ids": ["pc-1"], "monster_ids": ["mon-2"]}},
        "combat_start": {"combat": {"current": "pc-1", "round": 1, "order": order}},
    }

    def call_tool(tool: str, arguments: Any) -> ToolOutcome:
        if tool == "character_get":
            structured = {"character": views[arguments["character_id"]]}
        else:
            structured = results[tool]
        return ToolOutcome(tool=tool, step=1, ok=True, structured=structured)

    turn = TurnContext(
        job_id="start",
        system_id="dnd5e",
        phase="play",
        role="gm",
        task="action",
        text="start combat",
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("campaign_get", "character_get", "combat_start", "combat_status")
        ),
        character_id=None,
    )
    return [m.text for m in ScriptedAgent().run_turn(turn, call_tool).messages]


def test_combat_started_with_a_dying_character_first_says_its_turn_is_a_death_save():
    assert _started(["unconscious"])[1:] == [
        "Ilsa acts first. Ilsa is dying: their turn is a death save."
    ]


def test_combat_started_with_a_stable_character_first_says_it_is_stable():
    assert _started(["unconscious", "stable"])[1:] == [
        "Ilsa acts first. Ilsa is stable and unconscious."
    ]
