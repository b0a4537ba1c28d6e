"""A damage spell the GM casts at no one ("cast fire bolt"): the example of applying its damage
names no creature the table may not have, but the placeholder the help's examples use, as a
monster's spell cast at no one does."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("said", "spell", "caster", "example"),
    [
        ("cast fire bolt", "Fire Bolt", "wizard", "damage <target> 9 fire"),
        ("cast magic missile", "Magic Missile", "wizard", "damage <target> 9 force"),
        ("cast sacred flame", "Sacred Flame", "cleric", "damage <target> 9 radiant"),
    ],
)
def test_the_gm_casting_a_damage_spell_at_no_one_gets_a_placeholder_example(
    live_domains, gm, player, said, spell, caster, example
):
    table = make_table("dnd5e", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    run = table.run(gm, said, job_id="cast")
    assert run.texts == [
        (
            f"The rules here cast {spell} for a player's {caster}: roll it and apply the damage "
            f"it does (“{example}”).",
            "requester",
        )
    ]
    assert run.tools == [] and table.revision() == before
