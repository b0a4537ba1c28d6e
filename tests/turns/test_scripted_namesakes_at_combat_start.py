"""Combat that starts with two living monsters of one name tells them apart as every later line
does: the later one (by id) is "Goblin 2" in the order and when it acts first, not a second
"Goblin" the players cannot tell from the first."""

from __future__ import annotations

from typing import Any

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, ToolOutcome, TurnContext
from tests.turns.test_scripted_conditions import _combatant

TOOLS = ("campaign_get", "character_get", "combat_start", "combat_status")


def _twins_where_the_later_goes_first() -> dict[str, Any]:
    """Two living goblins both named "Goblin" (mon-2, mon-3) and Ilsa; mon-3 rolls highest."""
    views = {
        "pc-1": {"id": "pc-1", "name": "Ilsa", "kind": "pc", "status": "unhurt"},
        **{
            i: {
                "id": i,
                "name": "Goblin",
                "kind": "monster",
                "monster_key": "goblin",
                "status": "unhurt",
                "hp": {"current": 7, "max": 7},
            }  # fmt: skip
            for i in ("mon-2", "mon-3")
        },
    }
    order = [
        {**_combatant("mon-3", "Goblin", "monster", initiative=15), "character": views["mon-3"]},
        {**_combatant("pc-1", "Ilsa", "pc", initiative=12), "character": views["pc-1"]},
        {**_combatant("mon-2", "Goblin", "monster", initiative=9), "character": views["mon-2"]},
    ]
    combat = {"current": "mon-3", "round": 1, "order": order}
    return {
        "views": views,
        "campaign_get": {
            "campaign": {"character_ids": ["pc-1"], "monster_ids": ["mon-2", "mon-3"]}
        },
        "combat_start": {"combat": combat},
        "combat_status": {"combat": combat},
    }


def _said(text: str, phase: str) -> list[str]:
    results = _twins_where_the_later_goes_first()

    def call_tool(tool: str, arguments: Any) -> ToolOutcome:
        if tool == "character_get":
            structured = {"character": results["views"][arguments["character_id"]]}
        else:
            structured = results[tool]
        return ToolOutcome(tool=tool, step=1, ok=True, structured=structured)

    turn = TurnContext(
        job_id="twins",
        system_id="dnd5e",
        phase=phase,
        role="gm",
        task="action",
        text=text,
        tools=tuple(ToolInfo(n, "", {"type": "object", "properties": {}}) for n in TOOLS),
        character_id=None,
    )
    return [m.text for m in ScriptedAgent().run_turn(turn, call_tool).messages]


def test_the_later_of_two_namesakes_is_numbered_when_it_acts_first():
    assert _said("whose turn is it?", "combat") == ["It is Goblin 2's turn (round 1)."]
    assert _said("start combat", "play") == [
        "Weapons are drawn. Initiative: Goblin 2 (15), Ilsa (12), Goblin (9).",
        "Goblin 2 acts first.",
    ]
