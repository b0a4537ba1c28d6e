"""Words a player adds to an attack or a move at the table: "with advantage" is how the roll
is made, not a weapon; a move to a creature one already stands beside goes nowhere."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _attack_roll(run):
    return next(o.structured for o in run.caller.outcomes if o.tool == "attack")["to_hit"]


ADVANTAGE_HIT = (
    "Steel meets flesh. Ilsa's Longsword hits Goblin (18 to hit): 7 slashing. "
    "(Advantage: as asked.) Goblin falls and does not rise."
)


@pytest.mark.parametrize(
    ("text", "mode", "said"),
    [
        ("attack goblin with advantage", "advantage", ADVANTAGE_HIT),
        (
            "attack goblin with disadvantage",
            "disadvantage",
            "Goblin evades Ilsa's Longsword (rolled 8). (Disadvantage: as asked.)",
        ),
        ("attack goblin with my longsword with advantage", "advantage", ADVANTAGE_HIT),
    ],
)
def test_an_attack_with_advantage_asked_rolls_so_rather_than_reading_a_weapon(
    live_domains, gm, player, text, mode, said
):
    """ "with advantage" was read as a weapon and refused: the attack tool takes the flag
    from a player, so it is passed and the line says who asked for it."""
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, text, job_id="asked")
    assert run.tools == ["combat_status", "attack"]
    assert _attack_roll(run)["mode"] == mode
    assert run.texts == [(said, "trigger")]


def test_moving_to_a_creature_one_is_already_beside_says_so_without_moving(
    live_domains, gm, player
):
    """It answered "Ilsa stays at (5, 0), ..." after a move call that went nowhere: the combat
    state read says she is beside it, so she is told so and nothing is moved."""
    table, _start = dnd_table_in_combat(gm, player)
    # Ilsa at (5, 0); the goblin at (6, 1), a diagonal step away.
    run = table.run(player, "move to goblin 1", job_id="beside")
    assert run.tools == ["combat_status"]
    assert run.texts == [("Ilsa is already beside Goblin.", "trigger")]
