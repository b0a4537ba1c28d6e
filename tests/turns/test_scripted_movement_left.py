"""A move that spends the last of a turn's movement says so in words ("no movement left"),
not "0 ft of movement remain"."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, TurnContext
from tests.turns.test_scripted_conditions import _combatant, _Stub


def _said(move: dict[str, object], job_id: str) -> str:
    turn = TurnContext(
        job_id=job_id,
        system_id="dnd5e",
        phase="combat",
        role="player",
        task="action",
        text="move to 5,1",
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "combat_move")
        ),
        character_id="pc-1",
    )
    order = [_combatant("pc-1", "Briar", "pc"), _combatant("mon-3", "Wolf", "monster")]
    stub = _Stub(
        {
            "combat_status": {"combat": {"current": "pc-1", "round": 1, "order": order}},
            "combat_move": move,
        }
    )
    return ScriptedAgent().run_turn(turn, stub).messages[0].text


JOBS = [f"job-{n}" for n in range(8)]  # enough for every phrasing to be picked


def test_a_move_that_spends_all_movement_says_none_is_left():
    move = {"feet": 5, "movement_cost": 5, "movement_left": 0, "crawled": False, "from": [5, 0]}
    assert {_said(move, job) for job in JOBS} == {
        "Briar moves to (5, 1), 5 ft, with no movement left.",
        "Briar crosses 5 ft to (5, 1); no movement left.",
    }


def test_a_crawl_that_spends_all_movement_says_none_is_left():
    move = {"feet": 5, "movement_cost": 10, "movement_left": 0, "crawled": True, "from": [5, 0]}
    assert {_said(move, job) for job in JOBS} == {
        "Briar crawls to (5, 1), 5 ft for 10 ft of movement, with no movement left.",
        "Briar crawls 5 ft to (5, 1), using 10 ft of movement; no movement left.",
    }


@pytest.mark.parametrize(
    ("left", "said"), [(1, "1 ft of movement remains"), (25, "25 ft of movement remain")]
)
def test_movement_left_agrees_with_its_number(left, said):
    move = {"feet": 5, "movement_cost": 5, "movement_left": left, "crawled": False, "from": [5, 0]}
    assert f"Briar crosses 5 ft to (5, 1); {said}." in {_said(move, job) for job in JOBS}
