"""Damage the scripted GM narrates (an attack's hit, Magic Missile's darts, Sacred Flame, Fire
Bolt) says the concentration save it called for: kept, lost (the spell ends), or the spell
ended with no save at 0 HP; a result without one is told as before."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write

pytestmark = pytest.mark.django_db


def _party(gm, player):
    """The player's cleric Ash (pc-1) warding the GM's fighter Bram (pc-2), and the player's
    wizard Wren (pc-3); the player speaks as Ash."""
    table = make_table("dnd5e", gm, player)
    ash = table.call(player, "character_create", name="Ash", template="cleric", level=3)
    table.call(gm, "character_create", name="Bram", template="fighter")
    table.call(player, "character_create", name="Wren", template="wizard", level=5)
    table.characters[principal_for(player)] = ash.structured["character"]["id"]
    table.run(gm, "set phase play", job_id="play")
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    return table


def _as(table, player, char_id):
    table.characters[principal_for(player)] = char_id


def _held(table):
    ash = table.call(table.gm, "character_get", character_id="pc-1").structured["character"]
    return ash.get("concentration")


def _bram_ac(table):
    return table.call(table.gm, "character_get", character_id="pc-2").structured["character"]["ac"]


def _fire_bolt_at_ash(table, player, job_id):
    _as(table, player, "pc-3")
    table.run(player, "roll 1d20", job_id=f"{job_id}-roll")  # the stream's next roll
    return table.run(player, "cast fire bolt at Ash", job_id=job_id)


def test_a_failed_concentration_save_on_a_hit_ends_the_spell(live_domains, gm, player):
    table = _party(gm, player)
    run = _fire_bolt_at_ash(table, player, "bolt")
    assert run.texts == [
        ("Wren casts Fire Bolt at Ash and hits (21 to hit): 13 fire damage (2d10 = 13). Ash "
         "rolls 6 against DC 10 and loses concentration: Shield of Faith ends.", "trigger"),
    ]  # fmt: skip
    assert (_held(table), _bram_ac(table)) == (None, 16)


def test_a_concentration_save_made_keeps_the_spell(live_domains, gm, player):
    table = _party(gm, player)
    _fire_bolt_at_ash(table, player, "first")
    _gm_write(table, "heal", target_id="pc-1", amount=13)
    _as(table, player, "pc-1")
    table.run(player, "cast shield of faith on Bram", job_id="again")
    run = _fire_bolt_at_ash(table, player, "second")
    assert run.texts == [
        ("Wren casts Fire Bolt at Ash and hits (21 to hit): 10 fire damage (2d10 = 10). Ash's "
         "concentration holds (13 against DC 10): Shield of Faith lasts.", "trigger"),
    ]  # fmt: skip
    assert (_held(table)["name"], _bram_ac(table)) == ("Shield of Faith", 18)


def test_magic_missile_darts_call_for_saves_until_one_fails(live_domains, gm, player):
    table = _party(gm, player)
    _as(table, player, "pc-3")
    run = table.run(player, "cast magic missile at Ash", job_id="darts")
    assert run.texts == [
        ("Wren casts Magic Missile at Ash: 3 darts for 14 force damage (3d4+3 = 14). Ash "
         "loses concentration, rolling 16 and 6 against DC 10: Shield of Faith ends. Wren has 3 "
         "level 1 spell slots left.",
         "trigger"),
    ]  # fmt: skip
    assert _held(table) is None


def test_dropping_to_0_hp_ends_the_spell_with_no_save(live_domains, gm, player):
    table = _party(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-1", amount=20)  # 4 HP left; its save fails
    assert _held(table) is None
    _as(table, player, "pc-1")
    table.run(player, "cast shield of faith on Bram", job_id="again")
    _as(table, player, "pc-3")
    run = table.run(player, "cast magic missile at Ash", job_id="darts")
    assert run.texts == [
        ("Wren casts Magic Missile at Ash: 3 darts for 12 force damage (3d4+3 = 12). Ash "
         "drops, unconscious and dying. Shield of Faith ends: Ash dropped to 0 hit points. "
         "Wren has 3 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip
    assert (_held(table), _bram_ac(table)) == (None, 16)


def test_a_weapon_hit_on_the_caster_says_its_save(live_domains, gm, player):
    table = _party(gm, player)
    table.run(gm, "Bram attacks Ash", job_id="blow0")  # a miss
    run = table.run(gm, "Bram attacks Ash", job_id="blow1")
    assert run.texts == [
        ("Steel meets flesh. Ash takes 9 slashing damage from Bram's Longsword. Ash rolls 16 "
         "against DC 10 and keeps concentrating on Shield of Faith.", "trigger"),
    ]  # fmt: skip
    assert _held(table)["target_id"] == "pc-2"
