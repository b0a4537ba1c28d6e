"""A name typed without its space ("goblin2", "Goblin2") is that creature, as a name in
another case is: the table reads it the same."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", ["attack goblin2", "Attack the Goblin2!"])
def test_a_player_attacks_a_numbered_creature_named_without_its_space(
    live_domains, gm, player, text
):
    table, _start = dnd_table_in_combat(gm, player)  # Goblin 2 is mon-3
    run = table.run(player, text, job_id="spaceless")
    attacks = [o.structured for o in run.caller.outcomes if o.tool == "attack"]
    assert [(a["attacker_id"], a["target_id"]) for a in attacks] == [("pc-1", "mon-3")]


def test_the_gm_looks_at_a_numbered_creature_named_without_its_space(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(gm, "look at goblin2", job_id="spaceless-look")
    assert run.texts == [("The GM looks Goblin 2 over: unhurt.", "trigger")]
