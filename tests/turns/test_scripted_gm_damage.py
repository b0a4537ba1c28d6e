"""The GM deals damage outside an attack (damage_apply): "damage goblin 9 fire", "deal 7 fire
damage to the goblin", "the goblin takes 4 piercing damage". The room hears it in the words an
attack's hit uses (the target's state, a concentration save); a monster's hit points, and what
its resistances made of the damage, reach the GM alone."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write

pytestmark = pytest.mark.django_db


def _play(gm, player):
    """Ilsa, the player's fighter, and a goblin (mon-2, 7 HP), in play."""
    table = make_table("dnd5e", gm, player)
    ilsa = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = ilsa.structured["character"]["id"]
    table.call(gm, "phase_set", phase="play")
    _gm_write(table, "monster_spawn", monster_key="goblin")
    return table


def _hp(table, char_id):
    got = table.call(table.gm, "character_get", character_id=char_id).structured["character"]
    return got["hp"]


def test_the_gm_damages_a_monster_and_only_the_gm_hears_its_hp(live_domains, gm, player):
    table = _play(gm, player)
    run = table.run(gm, "damage goblin 4 fire", job_id="burn")
    assert run.tools[-1] == "damage_apply"
    assert run.texts == [("Goblin takes 4 fire damage.", "trigger"), ("Goblin: 3/7 HP.", "gm")]
    assert _hp(table, "mon-2")["current"] == 3


def test_the_gm_deals_damage_said_as_a_sentence(live_domains, gm, player):
    table = _play(gm, player)
    run = table.run(gm, "deal 7 fire damage to the goblin", job_id="deal")
    assert run.texts == [
        ("Goblin takes 7 fire damage. Goblin falls and does not rise.", "trigger"),
        ("Goblin: 0/7 HP.", "gm"),
    ]


def test_a_creature_takes_the_damage_the_gm_says(live_domains, gm, player):
    table = _play(gm, player)
    run = table.run(gm, "the goblin takes 4 piercing damage", job_id="takes")
    assert run.texts == [("Goblin takes 4 piercing damage.", "trigger"), ("Goblin: 3/7 HP.", "gm")]


def test_damage_with_no_type_to_a_character(live_domains, gm, player):
    table = _play(gm, player)
    before = _hp(table, "pc-1")
    run = table.run(gm, "damage Ilsa 5", job_id="cut")
    assert run.texts == [("Ilsa takes 5 damage.", "trigger")]
    assert _hp(table, "pc-1")["current"] == before["current"] - 5


def test_temporary_hit_points_absorb_the_damage_first(live_domains, gm, player):
    table = _play(gm, player)
    _gm_write(table, "temp_hp_grant", target_id="pc-1", amount=3)
    before = _hp(table, "pc-1")
    run = table.run(gm, "damage Ilsa 5 slashing", job_id="cut")
    assert run.texts == [
        ("Ilsa takes 5 slashing damage. Temporary hit points absorb 3 of it.", "trigger")
    ]
    assert _hp(table, "pc-1") == {**before, "current": before["current"] - 2, "temp": 0}


def test_a_character_dropped_to_0_hp_is_dying(live_domains, gm, player):
    table = _play(gm, player)
    run = table.run(gm, "damage Ilsa twenty", job_id="fell")
    assert run.texts == [("Ilsa takes 20 damage. Ilsa drops, unconscious and dying.", "trigger")]


def test_a_monster_s_vulnerability_is_the_gm_s_to_hear(live_domains, gm, player):
    table = _play(gm, player)
    _gm_write(table, "monster_spawn", monster_key="skeleton")  # mon-3, 13 HP
    run = table.run(gm, "damage skeleton 3 bludgeoning", job_id="smash")
    assert run.texts == [
        ("Skeleton takes 3 bludgeoning damage.", "trigger"),
        ("Vulnerability doubles it to 6. Skeleton: 7/13 HP.", "gm"),
    ]
    immune = table.run(gm, "deal 5 poison damage to the skeleton", job_id="gas")
    assert immune.texts == [
        ("Skeleton takes 5 poison damage.", "trigger"),
        ("Skeleton is immune to poison damage. Skeleton: 7/13 HP.", "gm"),
    ]


def test_a_concentrating_caster_makes_its_save_and_may_lose_the_spell(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    ash = table.call(player, "character_create", name="Ash", template="cleric", level=3)
    table.call(gm, "character_create", name="Bram", template="fighter")
    table.characters[principal_for(player)] = ash.structured["character"]["id"]
    table.run(gm, "set phase play", job_id="play")
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    run = table.run(gm, "damage Ash 2 cold", job_id="chill")
    assert run.texts == [
        (
            "Ash takes 2 cold damage. Ash's concentration breaks (6 against DC 10): Shield of "
            "Faith ends.",
            "trigger",
        )
    ]
    bram = table.call(gm, "character_get", character_id="pc-2").structured["character"]
    assert bram["ac"] == 16


def test_a_damage_type_the_rules_do_not_know_is_refused(live_domains, gm, player):
    table = _play(gm, player)
    before = table.revision()
    run = table.run(gm, "damage goblin 4 banana", job_id="fruit")
    assert run.texts == [
        ("That cannot happen: the damage type must be one of \"acid\", \"bludgeoning\", "
         "\"cold\", \"fire\", \"force\", \"lightning\", \"necrotic\", \"piercing\", "
         "\"poison\", \"psychic\", \"radiant\", \"slashing\", \"thunder\".", "requester"),
    ]  # fmt: skip
    assert table.revision() == before
