"""Opportunity attacks in the scripted agent: a move out of a hostile creature's reach says
who may strike, the GM is offered the strike at once, and calls it as the attacker's
reaction ("goblin 2 attacks Ilsa as a reaction")."""

from __future__ import annotations

from typing import Any

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import AgentOutput, ToolInfo, ToolOutcome, TurnContext
from tests.turns.test_scripted_conditions import _combatant

ATTACK_SCHEMA = {
    "type": "object",
    "properties": {"as_reaction": {"type": "boolean", "description": "Use the reaction."}},
}


class _Recorder:
    """A call_tool that answers from a table of structured results and keeps each call."""

    def __init__(self, results: dict[str, dict[str, Any]]) -> None:
        self.results = results
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, tool: str, arguments: Any) -> ToolOutcome:
        self.calls.append((tool, dict(arguments)))
        return ToolOutcome(tool=tool, step=1, ok=True, structured=self.results[tool])


# Two goblins: the second is "Goblin 2" at the table, "Goblin (mon-3)" to the domain.
ORDER = [
    _combatant("pc-1", "Ilsa", "pc", position=[3, 0]),
    _combatant("mon-2", "Goblin", "monster", monster_key="goblin", position=[9, 9]),
    _combatant("mon-3", "Goblin", "monster", monster_key="goblin", position=[6, 0]),
]
MOVE = {
    "character_id": "pc-1",
    "from": [5, 0],
    "to": [3, 0],
    "feet": 10,
    "crawled": False,
    "movement_cost": 10,
    "movement_left": 20,
    "opportunity_attacks": [{"attacker_id": "mon-3", "attacker_name": "Goblin (mon-3)"}],
}


def _turn(text: str, *, role: str, character_id: str | None, job_id: str = "oa") -> TurnContext:
    return TurnContext(
        job_id=job_id,
        system_id="dnd5e",
        phase="combat",
        role=role,
        task="action",
        text=text,
        tools=(
            ToolInfo("combat_status", "", {"type": "object", "properties": {}}),
            ToolInfo("combat_move", "", {"type": "object", "properties": {}}),
            ToolInfo("combat_end_turn", "", {"type": "object", "properties": {}}),
            ToolInfo("attack", "", ATTACK_SCHEMA),
        ),
        character_id=character_id,
    )


def _ilsa_moves(move: dict[str, Any] = MOVE, job_id: str = "oa") -> AgentOutput:
    stub = _Recorder(
        {
            "combat_status": {"combat": {"current": "pc-1", "round": 1, "order": ORDER}},
            "combat_move": move,
        }
    )
    turn = _turn("move to 3,0", role="player", character_id="pc-1", job_id=job_id)
    return ScriptedAgent().run_turn(turn, stub)


def test_a_move_out_of_a_goblins_reach_says_it_may_make_an_opportunity_attack():
    said = {_ilsa_moves(job_id=f"job-{n}").messages[0] for n in range(8)}

    provoked = "Ilsa leaves Goblin 2's reach: Goblin 2 may make an opportunity attack."
    assert {m.text for m in said} == {
        f"Ilsa moves to (3, 0), 10 ft, with 20 ft left. {provoked}",
        f"Ilsa crosses 10 ft to (3, 0); 20 ft of movement remain. {provoked}",
    }
    # Told with the move, to the move's audience.
    assert {m.audience for m in said} == {"trigger"}


def test_a_crawl_out_of_two_reaches_names_both():
    move = {
        **MOVE,
        "crawled": True,
        "movement_cost": 20,
        "opportunity_attacks": [
            {"attacker_id": "mon-2", "attacker_name": "Goblin (mon-2)"},
            {"attacker_id": "mon-3", "attacker_name": "Goblin (mon-3)"},
        ],
    }

    texts = {_ilsa_moves(move, job_id=f"job-{n}").messages[0].text for n in range(8)}

    provoked = "Ilsa leaves the reach of Goblin and Goblin 2: each may make an opportunity attack."
    assert texts == {
        f"Ilsa crawls to (3, 0), 10 ft for 20 ft of movement, with 20 ft left. {provoked}",
        f"Ilsa crawls 10 ft to (3, 0), using 20 ft of movement; 20 ft of movement remain. "
        f"{provoked}",
    }


def test_a_move_that_provokes_nothing_says_nothing_of_reactions():
    move = {k: v for k, v in MOVE.items() if k != "opportunity_attacks"}

    texts = {_ilsa_moves(move, job_id=f"job-{n}").messages[0].text for n in range(8)}

    assert texts == {
        "Ilsa moves to (3, 0), 10 ft, with 20 ft left.",
        "Ilsa crosses 10 ft to (3, 0); 20 ft of movement remain.",
    }
