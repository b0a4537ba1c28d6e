""" "I drink a potion of healing", "give Ilsa a healing potion": a potion of healing given by
the requester's character, as "heal me" and "heal Ilsa" are, where they were not understood."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("I drink a potion of healing", "me"),
        ("drink my healing potion!", "me"),
        ("I quaff a potion", "me"),
        ("I use a potion of healing", "me"),
        ("give Ilsa a potion of healing", "Ilsa"),
        ("I give the goblin a healing potion", "the goblin"),
    ],
)
def test_a_potion_said_is_a_heal(text, target):
    intent, match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is s.dnd_heal, text
    assert (match["target"], match["amount"]) == (target, None)


def test_drinking_a_potion_heals_ones_own_character(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    _gm_write(table, "damage_apply", target_id="pc-1", amount=5)

    run = table.run(player, "I drink a potion of healing", job_id="drink")

    assert run.texts == [
        ("Ilsa drinks a potion of healing (2d4+2 = 8). Ilsa recovers 5 HP (now 12).", "trigger")
    ]
