"""A death save that kills passes the turn: the options offered for it state that turn and its
round (a new one when the turn wraps), as the death save's result says, so publication names
them with it and not with a later turn the room has reached."""

from __future__ import annotations

from typing import Any

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import AgentOutput, OfferedTurn, ToolInfo, TurnContext
from tests.turns.test_scripted_conditions import _combatant, _Stub


def _run(text: str, tools: tuple[str, ...], results: dict[str, Any]) -> AgentOutput:
    turn = TurnContext(
        job_id=f"stated-{text}",
        system_id="dnd5e",
        phase="combat",
        role="player",
        task="action",
        text=text,
        tools=tuple(ToolInfo(n, "", {"type": "object", "properties": {}}) for n in tools),
        character_id="pc-1",
    )
    return ScriptedAgent().run_turn(turn, _Stub(results))


def test_a_death_save_that_passes_the_turn_states_the_next_turn_and_its_round():
    order = [
        _combatant("pc-2", "Bram", "pc"),
        _combatant("mon-3", "Wolf", "monster"),
        _combatant("pc-1", "Ash", "pc", status="down", conditions=["prone", "unconscious"]),
    ]
    output = _run(
        "death save",
        ("combat_status", "death_save"),
        {
            "combat_status": {"combat": {"round": 2, "current": "pc-1", "order": order}},
            # Ash was last in the order: the turn wraps into round 3.
            "death_save": {"outcome": "dead", "natural": 4, "current": "pc-2", "round": 3},
        },
    )
    assert output.suggestions_for == {"pc-2": ("attack the wolf", "end turn")}
    assert output.turn == OfferedTurn("combat", 3, "pc-2")
