""" "goblin 2 uses its scimitar on Ilsa", "goblin 2 shoots its shortbow at Ilsa": a monster's
attack with the weapon its GM names, as "goblin 2 attacks Ilsa with its shortbow" is."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

SCIMITAR = "It lands. Goblin 2 strikes Ilsa with Scimitar for 8 slashing damage."
SHORTBOW = (
    "Goblin 2's Shortbow finds only air; 8 is not enough. (Disadvantage: hostile within 5 ft.)"
)


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("goblin 2 attacks Ilsa with its shortbow", SHORTBOW),
        ("goblin 2 shoots its shortbow at Ilsa", SHORTBOW),
        ("goblin 2 uses its shortbow on Ilsa", SHORTBOW),
        ("goblin 2 uses its scimitar on Ilsa", SCIMITAR),
        ("the goblin swings its scimitar at Ilsa", SCIMITAR),
    ],
)
def test_the_weapon_the_gm_names_is_the_attacks(live_domains, gm, player, text, reply):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end")  # Goblin 2's turn
    run = table.run(gm, text, job_id="q")
    assert run.tools == ["combat_status", "attack"]
    assert run.texts == [(reply, "trigger")]


def test_a_monster_using_its_action_on_someone_is_no_weapon(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end")
    run = table.run(gm, "goblin 2 uses its action on Ilsa", job_id="q")
    assert "attack" not in run.tools
