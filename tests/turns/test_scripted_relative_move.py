"""A move said as a table says it, from where the character stands: "move 2 squares north",
"I move 10 feet east". North is up on the map (towards row 0), east is to the right."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, ToolOutcome, TurnContext
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def test_a_relative_move_in_squares_or_feet_goes_from_where_the_character_stands(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    # Ilsa is up, at (5, 0); the goblins stand at (6, 0) and (6, 1).
    south = table.run(player, "move 2 squares south", job_id="south")
    assert south.tools == ["combat_status", "combat_move", "combat_status"]
    # Both goblins stood beside the squares left behind: either may strike as she goes.
    assert south.texts == [
        (
            "Ilsa moves to (5, 2), 10 ft, with 20 ft left. Ilsa leaves the reach of Goblin and "
            "Goblin 2: each may make an opportunity attack.",
            "trigger",
        )
    ]
    for text, square in [
        ("I move 10 feet west", [3, 2]),
        ("I move 1 square north-west", [2, 1]),
        ("move 5 ft northeast", [3, 0]),
    ]:
        moved = table.run(player, text, job_id=text)
        assert [o.structured["to"] for o in moved.caller.outcomes if o.tool == "combat_move"] == [
            square
        ], text
    ilsa = table.call(gm, "combat_status").structured["combat"]["order"][0]
    assert (ilsa["position"], ilsa["budget"]["movement"]) == ([3, 0], 0)


def test_a_relative_move_off_the_map_or_onto_a_creature_is_refused_in_words(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    for text, answer in [
        ("move 1 square north", "1 square north of (5, 0) is off the map: row 0 is the top edge."),
        (
            "move 7 squares east",
            "7 squares east of (5, 0) is off the map: column 11 is the right edge.",
        ),
        ("move 5 feet east", "That cannot happen: square (6, 0) is occupied by Goblin 2."),
        ("move 7 feet south", "Moves go by whole squares of 5 ft: 5, 10, 15 ft and so on."),
        ("move 0 squares south", "Say how far to move: 1 square (5 ft) or more."),
    ]:
        run = table.run(player, text, job_id=text)
        assert run.texts == [(answer, "requester")], text
        assert run.output.declined, text
        assert not set(run.tools) - {"combat_status", "combat_move"}, text
    assert table.revision() == before
    # Outside combat there is no grid: the phase says so, as for any move.
    table.run(gm, "end combat", job_id="end")
    outside = table.run(player, "move 2 squares north", job_id="outside")
    assert outside.texts == [("You cannot move on the grid in the play phase.", "requester")]


class _Grid:
    """A call_tool with pc-1 at (5, 3) on a 12x6 grid, recording where it is sent."""

    def __init__(self) -> None:
        self.moves: list[tuple[int, int]] = []

    def __call__(self, tool: str, arguments: Any) -> ToolOutcome:
        if tool == "combat_move":
            self.moves.append((arguments["x"], arguments["y"]))
            result = {"from": [5, 3], "to": [arguments["x"], arguments["y"]], "feet": 5,
                      "crawled": False, "movement_cost": 5, "movement_left": 25}  # fmt: skip
            return ToolOutcome(tool=tool, step=1, ok=True, structured=result)
        ilsa = {"id": "pc-1", "name": "Ilsa", "kind": "pc", "status": "unhurt"}
        order = [{"id": "pc-1", "position": [5, 3], "character": ilsa}]
        combat = {"current": "pc-1", "round": 1, "order": order,
                  "grid": {"width": 12, "height": 6}}  # fmt: skip
        return ToolOutcome(tool=tool, step=1, ok=True, structured={"combat": combat})


@pytest.mark.parametrize(
    ("text", "square"),
    [
        ("move north", (5, 2)),
        ("move 1 square south", (5, 4)),
        ("move 2 squares east", (7, 3)),
        ("move 2 squares west", (3, 3)),
        ("move 3 squares up", (5, 0)),
        ("move 2 squares down", (5, 5)),
        ("move 1 square left", (4, 3)),
        ("move 1 square right", (6, 3)),
        ("I move 3 squares north-west", (2, 0)),
        ("move 2 squares northwest", (3, 1)),
        ("move 2 squares north west", (3, 1)),
        ("move 2 squares NE", (7, 1)),
        ("move 2 squares south-east", (7, 5)),
        ("move 2 squares southwest", (3, 5)),
        ("move 10 feet east", (7, 3)),
        ("move 10 ft. east", (7, 3)),
        ("move 15 foot west", (2, 3)),
        ("move east 2 squares", (7, 3)),
        ("move north 10 ft", (5, 1)),
        ("move 2 squares to the north", (5, 1)),
        ("move two squares east", (7, 3)),
        ("I move 2 east.", (7, 3)),
        ("walk 2 squares east", (7, 3)),
        ("step 1 square up-left", (4, 2)),
    ],
)
def test_every_way_of_saying_a_direction_and_distance_is_understood(text, square):
    turn = TurnContext(
        job_id=text,
        system_id="dnd5e",
        phase="combat",
        role="player",
        task="action",
        text=text,
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "combat_move")
        ),
        character_id="pc-1",
    )
    grid = _Grid()
    output = ScriptedAgent().run_turn(turn, grid)
    assert not output.help_only, text
    assert grid.moves == [square], text
