"""A spell said of a creature with no target ("goblin casts hold person"): the GM's example of
applying it names no one the table may not have, but the placeholder the help's examples use."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("said", "caster"),
    [("goblin casts hold person", "goblin"), ("The goblin 2 casts hold person", "goblin 2")],
)
def test_the_gm_saying_a_monster_casts_at_no_one_gets_a_placeholder_example(
    live_domains, gm, player, said, caster
):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, said, job_id="cast")
    assert run.texts == [
        (
            f"The rules cast only a player's spells: roll Hold Person's dice for {caster}, then "
            "apply what it does (“damage <target> 9” or “heal <target> 5”).",
            "requester",
        )
    ]
    assert table.revision() == before
