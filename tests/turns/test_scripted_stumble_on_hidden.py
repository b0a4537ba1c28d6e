"""A player character's move that runs into a hidden monster (the rules stop it on the square
before and the monster is found): the room hears where it stopped, not the square asked for,
and what it ran into; the GM is not told the found monster may strike from hiding."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from tests.turns.test_scripted_hidden_opportunity import PLAYER_ORDER
from tests.turns.test_scripted_opportunity_attacks import _Recorder, _turn

pytestmark = pytest.mark.django_db


def _ilsa_walks_into_goblin_2(*, feet: int, to: list[int], job_id: str):
    """Ilsa (at 3,0) is told to walk to (9, 0) past Goblin 2 (mon-3), hidden at (6, 0)."""
    move = {
        "character_id": "pc-1",
        "from": [3, 0],
        "to": to,
        "feet": feet,
        "crawled": False,
        "movement_cost": feet,
        "movement_left": 30 - feet,
        "stopped_by": {"id": "mon-3", "name": "Goblin (mon-3)", "at": [6, 0]},
    }
    stub = _Recorder(
        {
            "combat_status": {"combat": {"current": "pc-1", "round": 1, "order": PLAYER_ORDER}},
            "combat_move": move,
        }
    )
    turn = _turn("move to 9,0", role="player", character_id="pc-1", job_id=job_id)
    return ScriptedAgent().run_turn(turn, stub), stub


def test_the_room_hears_what_the_move_ran_into_and_the_square_it_stopped_on():
    for n in range(6):
        output, stub = _ilsa_walks_into_goblin_2(feet=10, to=[5, 0], job_id=f"job-{n}")

        moves = [call for call in stub.calls if call[0] == "combat_move"]
        assert moves == [("combat_move", {"character_id": "pc-1", "x": 9, "y": 0})]
        said = [(m.text, m.audience) for m in output.messages]
        assert said[0] == (
            "Ilsa stumbles on Goblin 2, hidden at (6, 0), and stops short.",
            "trigger",
        )
        assert said[1][1] == "trigger"
        assert said[1][0] in {
            "Ilsa moves to (5, 0), 10 ft, with 20 ft left.",
            "Ilsa crosses 10 ft to (5, 0); 20 ft of movement remain.",
        }
        # Found, Goblin 2 is no hidden threat the GM must be reminded of.
        assert len(said) == 2


def test_a_first_step_into_the_hidden_monster_says_the_mover_stays_put():
    output, _ = _ilsa_walks_into_goblin_2(feet=0, to=[3, 0], job_id="first-step")

    assert [(m.text, m.audience) for m in output.messages] == [
        ("Ilsa stumbles on Goblin 2, hidden at (6, 0), and stops short.", "trigger"),
        ("Ilsa stays at (3, 0), with 30 ft of movement left.", "trigger"),
    ]
