"""A player who types "attack" (or "I attack with advantage") with no target attacks the nearest
foe, as the GM's "the goblin attacks" does; with two as near, they are asked which, offered as
commands for their turn."""

from __future__ import annotations

from typing import Any

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import AgentOutput, OfferedTurn, ToolInfo, ToolOutcome, TurnContext
from tests.turns.test_scripted_conditions import _combatant

MISS = {
    "attack": "Longsword", "to_hit": {"total": 7, "natural": 4}, "hit": False, "critical": False,
}  # fmt: skip


class _Recording:
    def __init__(self, results: dict[str, Any]) -> None:
        self.results, self.calls = results, []

    def __call__(self, tool: str, arguments: Any) -> ToolOutcome:
        self.calls.append((tool, dict(arguments)))
        return ToolOutcome(tool=tool, step=len(self.calls), ok=True, structured=self.results[tool])


def _run(text: str, order: list[dict[str, Any]]) -> tuple[AgentOutput, list]:
    turn = TurnContext(
        job_id=f"no-target-{text}",
        system_id="dnd5e",
        phase="combat",
        role="player",
        task="action",
        text=text,
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "attack")
        ),
        character_id="pc-1",
    )
    stub = _Recording(
        {
            "combat_status": {"combat": {"round": 4, "current": "pc-1", "order": order}},
            "attack": MISS,
        }
    )
    return ScriptedAgent().run_turn(turn, stub), stub.calls


def _attacks(calls) -> list[dict[str, Any]]:
    return [arguments for tool, arguments in calls if tool == "attack"]


def test_attack_with_no_target_attacks_the_only_foe():
    order = [_combatant("pc-1", "Ash", "pc"), _combatant("mon-3", "Wolf", "monster")]

    output, calls = _run("attack", order)

    assert _attacks(calls) == [{"attacker_id": "pc-1", "target_id": "mon-3"}]
    assert output.suggestions == ("end turn",)


def test_i_attack_with_advantage_attacks_the_only_foe_with_advantage():
    order = [_combatant("pc-1", "Ash", "pc"), _combatant("mon-3", "Wolf", "monster")]

    _, calls = _run("I attack with advantage", order)

    assert _attacks(calls) == [{"attacker_id": "pc-1", "target_id": "mon-3", "advantage": True}]


def test_attack_with_two_foes_as_near_asks_which_for_the_players_turn():
    order = [
        _combatant("pc-1", "Ash", "pc"),
        _combatant("mon-3", "Wolf", "monster"),
        _combatant("mon-4", "Wolf", "monster"),
    ]

    output, calls = _run("attack", order)

    assert _attacks(calls) == []
    assert [m.text for m in output.messages] == ["Which one does Ash attack: Wolf or Wolf 2?"]
    assert output.suggestions == ("attack Wolf", "attack Wolf 2")
    assert output.turn == OfferedTurn("combat", 4, "pc-1")
