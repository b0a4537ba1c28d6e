"""A condition the GM gives that leaves a caster unable to act (stunned, paralyzed, unconscious)
ends its concentration: the room hears the spell end with the condition."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def _ash_warding_bram(gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ash", template="cleric", level=3)
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.call(gm, "character_create", name="Bram", template="fighter")
    table.run(gm, "set phase play", job_id="play")
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    return table


def test_stunning_the_caster_says_its_spell_ends(live_domains, gm, player):
    table = _ash_warding_bram(gm, player)
    run = table.run(gm, "stun Ash", job_id="stun")
    assert run.texts == [("Ash is now stunned. Shield of Faith ends: Ash is stunned.", "trigger")]
    bram = table.call(gm, "character_get", character_id="pc-2").structured["character"]
    assert bram["ac"] == 16


def test_a_condition_that_leaves_the_caster_able_says_nothing_of_it(live_domains, gm, player):
    table = _ash_warding_bram(gm, player)
    run = table.run(gm, "knock Ash prone", job_id="prone")
    assert run.texts == [("Ash is now prone.", "trigger")]
