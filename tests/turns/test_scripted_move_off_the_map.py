"""A relative move off the map is answered from where the mover stands ("2 squares north of
(5, 0) is off the map: row 0 is the top edge"), and a mover who cannot move at all is told
that first, whatever square was asked for."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, ToolOutcome, TurnContext
from tests.turns.test_scripted_conditions import _combatant, _Stub


def _answer(text: str, at: list[int], **briar: Any) -> tuple[str, list[str]]:
    turn = TurnContext(
        job_id="move",
        system_id="dnd5e",
        phase="combat",
        role="player",
        task="action",
        text=text,
        tools=(
            ToolInfo("combat_status", "", {"type": "object", "properties": {}}),
            ToolInfo(
                "combat_move",
                "",
                {"type": "object", "properties": {"x": {"type": "integer", "minimum": 0}}},
            ),
        ),
        character_id="pc-1",
    )
    order = [
        {**_combatant("pc-1", "Briar", "pc", **briar), "position": at},
        {**_combatant("mon-3", "Wolf", "monster"), "position": [9, 5]},
    ]
    combat = {"current": "pc-1", "round": 1, "order": order, "grid": {"width": 12, "height": 6}}
    called: list[str] = []

    def call_tool(tool: str, arguments: Any) -> ToolOutcome:
        called.append(tool)
        if tool == "combat_move":  # the rules' answer to a square past the grid
            message = f"({arguments['x']}, {arguments['y']}) is outside the 12x6 grid"
            return ToolOutcome(
                tool, 1, False, {}, error_code="invalid_request", error_message=message
            )
        return _Stub({"combat_status": {"combat": combat}})(tool, arguments)

    output = ScriptedAgent().run_turn(turn, call_tool)
    return output.messages[0].text, called


@pytest.mark.parametrize(
    ("text", "at", "answer"),
    [
        ("move 2 squares north", [5, 0],
         "2 squares north of (5, 0) is off the map: row 0 is the top edge."),
        ("move 10 feet west", [1, 3],
         "10 ft west of (1, 3) is off the map: column 0 is the left edge."),
        ("move 1 square south", [4, 5],
         "1 square south of (4, 5) is off the map: row 5 is the bottom edge."),
        ("move 3 squares north-east", [10, 1],
         "3 squares north-east of (10, 1) is off the map: row 0 is the top edge and column 11 "
         "is the right edge."),
    ],
)  # fmt: skip
def test_a_relative_move_off_the_map_is_answered_from_where_the_mover_stands(text, at, answer):
    said, called = _answer(text, at)
    assert said == answer
    assert "combat_move" not in called


@pytest.mark.parametrize("text", ["move 2 squares north", "move to -1, 2", "move to 30, 1"])
def test_an_unconscious_mover_is_told_it_cannot_move_before_the_map_edge(text):
    said, _called = _answer(text, [5, 0], status="down", conditions=["prone", "unconscious"])
    # Past the grid's far edge only the rules know it (asked, refused, nothing moved).
    assert said == "Briar cannot move while unconscious."
