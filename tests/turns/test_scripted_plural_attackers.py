""" "the goblins attack Ilsa", "orcs attack": an attack said of several creatures asks the GM
to name one at a time (each as a command to send), as a condition said of several does; one
that fits a single living creature is that creature's attack."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "commands"),
    [
        ("the goblins attack Ilsa", ("Goblin 2 attacks Ilsa", "Goblin attacks Ilsa")),
        (
            "The goblins attack Ilsa with their scimitars!",
            (
                "Goblin 2 attacks Ilsa with their scimitars",
                "Goblin attacks Ilsa with their scimitars",
            ),
        ),
        ("goblins attack", ("Goblin 2 attacks", "Goblin attacks")),
    ],
)
def test_several_attackers_are_asked_about_one_at_a_time(live_domains, gm, player, text, commands):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, text, job_id="plural")
    said = text.split(" attack")[0]
    assert run.texts == [
        (
            f"“{said}” are Goblin 2 and Goblin: name one at a time, as in “{commands[0]}”.",
            "requester",
        )
    ]
    assert run.output.suggestions == commands
    assert "attack" not in run.tools
    assert table.revision() == before


def test_a_plural_that_fits_one_living_creature_attacks_as_it(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    _gm_write(table, "damage_apply", target_id="mon-2", amount=50)  # Goblin dies
    table.run(player, "end turn", job_id="end")  # Goblin 2 is up
    plural = table.run(gm, "the goblins attack Ilsa", job_id="attack")
    assert [o.structured["attacker_id"] for o in plural.caller.outcomes if o.tool == "attack"] == [
        "mon-3"
    ]
