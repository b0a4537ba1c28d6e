"""A hidden monster's opportunity attack in the scripted agent: the room is never told a
hidden monster could strike (it was within reach, which says where it is). The GM is told
privately: what the rules name to a GM's move, and, on a player's move (whose answer names no
hidden monster), that a hidden monster may have been left behind."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import AgentOutput
from tests.turns.test_scripted_opportunity_attacks import MOVE, ORDER, _Recorder, _turn

pytestmark = pytest.mark.django_db

# Goblin 2 (mon-3) hides: the GM's read says where, a player's does not.
GM_ORDER = [*ORDER[:2], {**ORDER[2], "hidden": True}]
PLAYER_ORDER = [*ORDER[:2], {k: v for k, v in GM_ORDER[2].items() if k != "position"}]
HIDDEN_GOBLIN = {"attacker_id": "mon-3", "attacker_name": "Goblin (mon-3)", "hidden": True}
SEEN_GOBLIN = {"attacker_id": "mon-2", "attacker_name": "Goblin (mon-2)"}


def _ilsa_moves(
    *, role: str, order: list[dict[str, Any]], provoked: list[dict[str, Any]], job_id: str = "oa"
) -> AgentOutput:
    move = {k: v for k, v in MOVE.items() if k != "opportunity_attacks"}
    if provoked:
        move["opportunity_attacks"] = provoked
    stub = _Recorder(
        {
            "combat_status": {"combat": {"current": "pc-1", "round": 1, "order": order}},
            "combat_move": move,
        }
    )
    character = "pc-1" if role == "player" else None
    text = "move to 3,0" if role == "player" else "ilsa moves to 3,0"
    turn = _turn(text, role=role, character_id=character, job_id=job_id)
    return ScriptedAgent().run_turn(turn, stub)


def test_a_gms_move_tells_the_gm_alone_of_a_hidden_monsters_opportunity_attack():
    output = _ilsa_moves(role="gm", order=GM_ORDER, provoked=[HIDDEN_GOBLIN])

    said = [(m.text, m.audience) for m in output.messages]
    assert said[0][0] in {
        "Ilsa moves to (3, 0), 10 ft, with 20 ft left.",
        "Ilsa crosses 10 ft to (3, 0); 20 ft of movement remain.",
    }
    assert said[1:] == [
        (
            "Goblin 2 is hidden: Ilsa leaves its reach, and Goblin 2 may make an opportunity "
            "attack.",
            "gm",
        )
    ]
    # The GM is offered the strike, as for a seen monster.
    assert output.suggestions[0] == "goblin 2 attacks Ilsa as a reaction"


def test_a_seen_monster_is_named_to_the_room_and_a_hidden_one_to_the_gm():
    output = _ilsa_moves(role="gm", order=GM_ORDER, provoked=[SEEN_GOBLIN, HIDDEN_GOBLIN])

    said = [(m.text, m.audience) for m in output.messages]
    assert said[0][0].endswith(
        " Ilsa leaves Goblin's reach: Goblin may make an opportunity attack."
    )
    assert said[0][1] == "trigger"
    assert said[1:] == [
        (
            "Goblin 2 is hidden: Ilsa leaves its reach, and Goblin 2 may make an opportunity "
            "attack.",
            "gm",
        )
    ]


def test_a_players_move_while_a_monster_hides_tells_the_gm_it_may_strike():
    output = _ilsa_moves(role="player", order=PLAYER_ORDER, provoked=[])

    said = [(m.text, m.audience) for m in output.messages]
    assert said[0][1] == "trigger"
    assert "Goblin 2" not in said[0][0]
    assert said[1:] == [
        (
            "Goblin 2 is hidden: if Ilsa left its reach, Goblin 2 may make an opportunity "
            "attack (“goblin 2 attacks Ilsa as a reaction”).",
            "gm",
        )
    ]


def test_a_players_move_with_no_monster_hidden_tells_the_gm_nothing_more():
    output = _ilsa_moves(role="player", order=ORDER, provoked=[])

    assert [m.audience for m in output.messages] == ["trigger"]


def _goblin_2_moves(job_id: str) -> AgentOutput:
    """The GM moves Goblin 2 (mon-3), hidden, from (6, 0) to (9, 3) in a public action."""
    move = {
        "character_id": "mon-3",
        "hidden": True,
        "from": [6, 0],
        "to": [9, 3],
        "feet": 15,
        "crawled": False,
        "movement_cost": 15,
        "movement_left": 15,
    }
    stub = _Recorder(
        {
            "combat_status": {"combat": {"current": "mon-3", "round": 1, "order": GM_ORDER}},
            "combat_move": move,
        }
    )
    turn = _turn("goblin 2 moves to 9,3", role="gm", character_id=None, job_id=job_id)
    return ScriptedAgent().run_turn(turn, stub)


def test_a_hidden_monsters_move_says_where_it_went_to_the_gm_alone():
    for n in range(6):
        said = [(m.text, m.audience) for m in _goblin_2_moves(f"job-{n}").messages]
        assert said[0] == ("Goblin 2 moves, unseen.", "trigger")
        assert said[1][1] == "gm"
        assert said[1][0] in {
            "Goblin 2 moves to (9, 3), 15 ft, with 15 ft left.",
            "Goblin 2 crosses 15 ft to (9, 3); 15 ft of movement remain.",
        }
        assert len(said) == 2
