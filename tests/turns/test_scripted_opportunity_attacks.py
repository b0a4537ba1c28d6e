"""Opportunity attacks in the scripted agent: a move out of a hostile creature's reach says
who may strike, the GM is offered the strike at once, and calls it as the attacker's
reaction ("goblin 2 attacks Ilsa as a reaction")."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import AgentOutput, ToolInfo, ToolOutcome, TurnContext
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_conditions import _combatant

pytestmark = pytest.mark.django_db

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


def _at(position: list[int], entity_id: str, name: str, kind: str, **extra: Any) -> dict[str, Any]:
    """An entry of combat_status's order standing on `position`: the rules give the square
    beside the character view, not inside it."""
    return {**_combatant(entity_id, name, kind, **extra), "position": position}


# Two goblins: the second is "Goblin 2" at the table, "Goblin (mon-3)" to the domain.
ORDER = [
    _at([3, 0], "pc-1", "Ilsa", "pc"),
    _at([9, 9], "mon-2", "Goblin", "monster", monster_key="goblin"),
    _at([6, 0], "mon-3", "Goblin", "monster", monster_key="goblin"),
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


def _missed_reaction(*, current: str, attack: str) -> _Recorder:
    """Rules that answer a reaction attack (`attack`) with a miss, on `current`'s turn."""
    return _Recorder(
        {
            "combat_status": {"combat": {"current": current, "round": 1, "order": ORDER}},
            "attack": {
                "attack": attack,
                "hit": False,
                "critical": False,
                "to_hit": {"total": 9, "natural": 5},
                "opportunity_attack": True,
            },
        }
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


def test_the_gm_is_offered_the_opportunity_attack_first_then_the_turns_own_options():
    # A player's move: the GM plays the goblin, as the GM's own attack form says it; Ilsa's
    # turn goes on, so the GM keeps what her turn offers them.
    assert _ilsa_moves().gm_suggestions == (
        "goblin 2 attacks Ilsa as a reaction",
        "describe",
        "end Ilsa's turn",
    )


def test_a_move_out_of_two_reaches_offers_both_strikes_then_the_turns_options():
    move = {
        **MOVE,
        "opportunity_attacks": [
            {"attacker_id": "mon-2", "attacker_name": "Goblin (mon-2)"},
            {"attacker_id": "mon-3", "attacker_name": "Goblin (mon-3)"},
        ],
    }

    output = _ilsa_moves(move)

    assert output.gm_suggestions == (
        "goblin attacks Ilsa as a reaction",
        "goblin 2 attacks Ilsa as a reaction",
        "describe",
        "end Ilsa's turn",
    )
    # The mover's own options are her turn's, as before the move: the goblin beside her
    # (goblin 2) is the one to strike.
    assert output.suggestions == ("attack goblin 2", "end turn")


def test_the_gm_calls_the_opportunity_attack_as_the_goblins_reaction():
    stub = _missed_reaction(current="pc-1", attack="Scimitar")
    turn = _turn("Goblin 2 attacks Ilsa as a reaction", role="gm", character_id=None)

    output = ScriptedAgent().run_turn(turn, stub)

    assert [c for c in stub.calls if c[0] == "attack"] == [
        ("attack", {"attacker_id": "mon-3", "target_id": "pc-1", "as_reaction": True})
    ]
    assert output.declined is False
    # Ilsa's turn goes on: the GM is offered what a player's turn offers, never "end turn"
    # (it would end Ilsa's), and the turn stated is hers, not the goblin's.
    assert output.suggestions == ("describe", "end Ilsa's turn")
    assert (output.turn.round, output.turn.combatant) == (1, "pc-1")


def test_a_player_calls_their_characters_opportunity_attack_as_a_reaction():
    stub = _missed_reaction(current="mon-3", attack="Longsword")
    turn = _turn("attack goblin 2 as a reaction", role="player", character_id="pc-1")

    ScriptedAgent().run_turn(turn, stub)

    assert [c for c in stub.calls if c[0] == "attack"] == [
        ("attack", {"attacker_id": "pc-1", "target_id": "mon-3", "as_reaction": True})
    ]


def test_a_goblins_move_out_of_ilsas_reach_offers_her_player_the_opportunity_attack():
    order = [
        _at([5, 0], "pc-1", "Ilsa", "pc"),
        _at([9, 0], "mon-2", "Goblin", "monster", monster_key="goblin"),
    ]
    stub = _Recorder(
        {
            "combat_status": {"combat": {"current": "mon-2", "round": 1, "order": order}},
            "combat_move": {
                **MOVE,
                "character_id": "mon-2",
                "from": [6, 0],
                "to": [9, 0],
                "feet": 15,
                "movement_cost": 15,
                "movement_left": 15,
                "opportunity_attacks": [{"attacker_id": "pc-1", "attacker_name": "Ilsa"}],
            },
        }
    )
    turn = _turn("move to 9,0", role="gm", character_id=None)

    output = ScriptedAgent().run_turn(turn, stub)

    assert output.suggestions_for == {"pc-1": ("attack the goblin as a reaction",)}


def test_without_reactions_in_the_rules_the_attack_is_refused_in_words():
    stub = _Recorder({"combat_status": {"combat": {"current": "pc-1", "round": 1, "order": ORDER}}})
    turn = _turn("goblin 2 attacks Ilsa as a reaction", role="gm", character_id=None)
    turn = dataclasses.replace(
        turn,
        tools=tuple(
            dataclasses.replace(t, input_schema={"type": "object", "properties": {}})
            for t in turn.tools
        ),
    )

    output = ScriptedAgent().run_turn(turn, stub)

    assert [m.text for m in output.messages] == [
        "These rules take no reactions: call it as a plain attack on the attacker's turn."
    ]
    assert [c for c in stub.calls if c[0] == "attack"] == []


def test_the_gm_strikes_as_ilsa_walks_away_on_the_live_rules(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa at (5, 0), goblins at (6, 0), (6, 1)
    moved = table.run(player, "move to 7,0", job_id="around")
    assert moved.output.gm_suggestions == (
        "goblin 2 attacks Ilsa as a reaction",
        "describe",
        "end Ilsa's turn",
    )

    struck = table.run(gm, moved.output.gm_suggestions[0], job_id="strike")

    attacks = [o for o in struck.caller.outcomes if o.tool == "attack"]
    assert [(o.ok, o.structured["opportunity_attack"]) for o in attacks] == [(True, True)]
    # Measured from the square she left, beside the goblin.
    assert attacks[0].structured["range"]["distance_ft"] == 5
    assert struck.output.suggestions == ("describe", "end Ilsa's turn")


def test_a_reaction_may_ask_for_advantage_as_any_attack_does():
    stub = _missed_reaction(current="pc-1", attack="Scimitar")
    turn = _turn("goblin 2 attacks Ilsa with advantage as a reaction", role="gm", character_id=None)

    ScriptedAgent().run_turn(turn, stub)

    assert [c for c in stub.calls if c[0] == "attack"] == [
        (
            "attack",
            {"attacker_id": "mon-3", "target_id": "pc-1", "advantage": True, "as_reaction": True},
        )
    ]
