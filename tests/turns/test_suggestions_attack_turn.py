"""An attacker's options state the turn they are for, from the combat the agent read: "end turn"
after an attack (made only on the attacker's own turn), and a dying or stable attacker's death
save or "end turn". Publication then names them with it, not with a later turn of the room."""

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


def test_an_attackers_end_turn_after_an_attack_states_the_attackers_turn():
    order = [_combatant("pc-1", "Ash", "pc"), _combatant("mon-3", "Wolf", "monster")]
    output = _run(
        "attack the wolf",
        ("combat_status", "attack"),
        {
            "combat_status": {"combat": {"round": 4, "current": "pc-1", "order": order}},
            "attack": {
                "attack": "Longsword",
                "to_hit": {"total": 7, "natural": 4},
                "hit": False,
                "critical": False,
            },
        },
    )
    assert output.suggestions == ("end turn",)
    assert output.turn == OfferedTurn("combat", 4, "pc-1")


def test_a_dying_attacker_is_offered_a_death_save_for_the_turn_it_read():
    order = [
        _combatant("pc-1", "Ash", "pc", status="down", conditions=["prone", "unconscious"]),
        _combatant("mon-3", "Wolf", "monster"),
    ]
    output = _run(
        "attack the wolf",
        ("combat_status", "attack"),
        {"combat_status": {"combat": {"round": 2, "current": "pc-1", "order": order}}},
    )
    assert output.suggestions == ("death save",)
    assert output.turn == OfferedTurn("combat", 2, "pc-1")


def test_a_stable_attacker_is_offered_end_turn_for_the_turn_it_read():
    order = [
        _combatant("mon-3", "Wolf", "monster"),
        _combatant(
            "pc-1", "Ash", "pc", status="down", conditions=["prone", "stable", "unconscious"]
        ),
    ]
    output = _run(
        "attack the wolf",
        ("combat_status", "attack"),
        {"combat_status": {"combat": {"round": 5, "current": "pc-1", "order": order}}},
    )
    assert output.suggestions == ("end turn",)
    assert output.turn == OfferedTurn("combat", 5, "pc-1")
