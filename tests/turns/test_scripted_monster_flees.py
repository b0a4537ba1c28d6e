""" "the goblin flees", "goblin 2 runs away": the rules move a creature only to a square, so the
GM is told how to move it away (and that leaving a foe's reach provokes unless it disengages);
it was answered with the generic "I did not understand that" or the player's move forms."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _reply(name: str) -> str:
    return (
        f"To have {name} flee, move it on its turn: {name} moves to X,Y (or {name} moves N "
        f"squares <direction>). Leaving a foe's reach provokes an opportunity attack unless it "
        f"disengages first (as narration: {name} disengages)."
    )


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("the goblin flees", "goblin"),
        ("goblin 2 runs away", "goblin 2"),
        ("Goblin 2 retreats!", "Goblin 2"),
        ("goblin 2 runs away from Ilsa", "goblin 2"),
        ("the goblin turns and runs", "goblin"),
    ],
)
def test_the_gm_is_told_how_a_monster_flees(live_domains, gm, player, text, name):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, text, job_id="flee")
    assert run.texts == [(_reply(name), "requester")]
    assert (run.output.help_only, run.tools) == (True, [])
    assert table.revision() == before


def test_a_player_saying_a_monster_flees_is_not_told_the_gms_commands(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, "the goblin flees", job_id="flee")
    assert run.texts == [
        ("I did not understand that. Say “help” for everything I understand.", "requester")
    ]


def test_outside_combat_a_flight_is_not_a_move(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    run = table.run(gm, "the goblin flees", job_id="flee")
    assert run.texts == [
        ("I did not understand that. Say “help” for everything I understand.", "requester")
    ]
