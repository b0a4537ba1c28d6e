"""A player's wizard casts Fire Bolt and a player's cleric Sacred Flame through the rules
(spell_cast: cantrips, no slot spent): the table hears the attack or the save, the damage and
the target's state as an attack tells them, and the dice panel shows the rolls."""

from __future__ import annotations

import pytest

from apps.turns.models import Operation
from apps.turns.services.publish import dice_from
from tests.turns.test_scripted_agent import _gm_write
from tests.turns.test_scripted_magic_missile import _hp, _slots, _wizards_table
from tests.turns.test_scripted_spellcasting import _clerics_table

pytestmark = pytest.mark.django_db


def _cast_of(run) -> dict:
    (cast,) = (o for o in run.caller.outcomes if o.tool == "spell_cast")
    return cast.structured


def _lines(cast: dict) -> list[dict]:
    return dice_from([Operation(step=1, tool="spell_cast", result={"structuredContent": cast})])


def test_a_wizard_casts_fire_bolt_and_misses_then_hits(live_domains, gm, player):
    table = _wizards_table(gm, player)  # Wren, 3rd level: +4 to hit; the ogre: AC 11, 59 HP
    missed = table.run(player, "cast fire bolt at the ogre", job_id="bolt")
    assert missed.tools[-1] == "spell_cast"
    assert missed.texts == [("Wren casts Fire Bolt at Ogre but misses (8 to hit).", "trigger")]
    assert _lines(_cast_of(missed)) == [
        {"tool": "attack", "label": "Fire Bolt", "attacker_id": "pc-1", "target_id": table.ogre,
         "attacker_name": "Wren", "target_name": "Ogre", "natural": 4, "total": 8,
         "mode": "normal", "hit": False, "critical": False, "damage": None,
         "damage_type": None},
    ]  # fmt: skip

    hit = table.run(player, "I cast fire bolt at the ogre", job_id="bolt2")
    assert hit.texts == [
        ("Wren casts Fire Bolt at Ogre and hits (20 to hit): 9 fire damage (1d10 = 9).",
         "trigger"),
    ]  # fmt: skip
    cast = _cast_of(hit)
    # The player's answer: neither the ogre's AC nor its hit points.
    assert "target_ac" not in cast["to_hit"] and "hp_after" not in cast["damage"]["effect"]
    assert (_slots(table)["1"], _hp(table, table.ogre)) == ({"current": 4, "max": 4}, 50)
    line = _lines(cast)
    assert [(x["tool"], x["natural"], x["total"], x["hit"], x["damage"]) for x in line] == [
        ("attack", 16, 20, True, 9),
    ]


def test_a_cleric_casts_sacred_flame_on_a_skeleton(live_domains, gm, player):
    table = _clerics_table(gm, player)  # Ilsa, 3rd level: DC 12
    skeleton = _gm_write(table, "monster_spawn", monster_key="skeleton")["character"]["id"]
    run = table.run(player, "cast sacred flame on the skeleton", job_id="flame")
    assert run.texts == [
        ("Ilsa casts Sacred Flame on Skeleton (DEX save 6 against DC 12): 4 radiant damage "
         "(1d8 = 4).", "trigger"),
    ]  # fmt: skip
    assert (_slots(table)["1"], _hp(table, skeleton)) == ({"current": 4, "max": 4}, 9)
    cast = _cast_of(run)
    # The skeleton's save as a player reads it: its total against the DC.
    assert "natural" not in cast["save"]
    roll = cast["roll"]["rolls"][0]["kept"]
    assert _lines(cast) == [
        {"tool": "saving_throw", "label": "Dex save · Skeleton", "natural": None, "total": 6,
         "mode": "normal", "dc": 12, "success": False},
        {"tool": "spell_cast", "label": "Sacred Flame · Skeleton", "expression": "1d8",
         "total": 4, "addends": roll, "dropped": []},
    ]  # fmt: skip

    avoided = table.run(player, "cast sacred flame on the skeleton", job_id="flame2")
    assert avoided.texts == [
        ("Ilsa casts Sacred Flame on Skeleton, who avoids it (DEX save 21 against DC 12).",
         "trigger"),
    ]  # fmt: skip
    assert [line["tool"] for line in _lines(_cast_of(avoided))] == ["saving_throw"]


def test_sacred_flame_that_fells_a_monster_says_so(live_domains, gm, player):
    table = _clerics_table(gm, player)
    skeleton = _gm_write(table, "monster_spawn", monster_key="skeleton")["character"]["id"]
    _gm_write(table, "damage_apply", target_id=skeleton, amount=12)  # 13 -> 1
    run = table.run(player, "cast sacred flame on the skeleton", job_id="flame")
    assert run.texts == [
        ("Ilsa casts Sacred Flame on Skeleton (DEX save 6 against DC 12): 4 radiant damage "
         "(1d8 = 4). Skeleton falls and does not rise.", "trigger"),
    ]  # fmt: skip


def test_a_cantrip_said_at_a_slot_level_is_refused_and_nothing_changes(live_domains, gm, player):
    table = _wizards_table(gm, player)
    before = table.revision()
    run = table.run(player, "cast fire bolt at the goblin at level 2", job_id="bolt")
    assert run.texts == [
        ("Fire Bolt is a cantrip: it is cast without a spell slot, at no level.", "requester"),
    ]  # fmt: skip
    assert run.tools == [] and table.revision() == before


def test_only_the_class_that_has_the_cantrip_casts_it(live_domains, gm, player):
    table = _clerics_table(gm, player)
    before = table.revision()
    run = table.run(player, "cast fire bolt at Bram", job_id="bolt")
    assert run.texts == [
        ("Ilsa cannot cast Fire Bolt: it is a wizard's spell. Attack instead "
         "(“attack Bram”).", "requester"),
    ]  # fmt: skip
    assert run.tools == ["character_get"] and table.revision() == before


def test_the_gm_is_told_to_apply_sacred_flames_damage(live_domains, gm, player):
    table = _clerics_table(gm, player)
    before = table.revision()
    run = table.run(gm, "cast sacred flame on the skeleton", job_id="flame")
    assert run.texts == [
        ("The rules here cast Sacred Flame for a player's cleric: roll it and apply the "
         "damage it does (“damage the skeleton 9 radiant”).", "requester"),
    ]  # fmt: skip
    assert run.tools == [] and table.revision() == before
