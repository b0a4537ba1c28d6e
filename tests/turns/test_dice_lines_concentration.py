"""A concentration save a damaging tool's result carries (damage_apply, an attack's hit, a spell's
damage: one save per Magic Missile dart until one fails) shows in the room's Dice panel as any
saving throw does: its total against the DC, success or failure, and on a failure the spell it
ends. A monster's shows the table its total alone; a drop to 0 HP ends it with no roll, and no
roll makes no line. The results are shaped as the domain's concentration tests show them."""

from __future__ import annotations

from typing import Any

from apps.turns.models import Operation
from apps.turns.services.publish import dice_from
from domain_servers.common import dice
from tests.turns.test_dice import Scripted


def _save(natural: int, dc: int = 10) -> dict[str, Any]:
    """Ash's CON save (CON 14: +2, not proficient), as rules.forced_save makes it."""
    total = natural + 2
    return {
        "natural": natural, "rolls": [natural], "mode": "normal", "ability": "con",
        "ability_modifier": 2, "proficiency": 0, "bonus": 0, "total": total, "dc": dc,
        "success": total >= dc,
    }  # fmt: skip


def _kept(natural: int) -> dict[str, Any]:
    return {"spell": "Shield of Faith", "kept": True, "save": _save(natural)}


def _lost(natural: int) -> dict[str, Any]:
    return {"spell": "Shield of Faith", "kept": False, "save": _save(natural)}


def _op(tool: str, result: dict[str, Any]) -> Operation:
    return Operation(step=1, tool=tool, result={"structuredContent": result})


def _hurt(**extra: Any) -> dict[str, Any]:
    """damage_apply's result on Ash (pc-1): it names its target by id alone."""
    return {
        "target_id": "pc-1", "raw": 4, "adjusted": 4, "damage_type": None,
        "hp_before": {"current": 10, "max": 10, "temp": 0},
        "hp_after": {"current": 6, "max": 10, "temp": 0},
        "absorbed_by_temp_hp": 0, "dropped_to_zero": False, "dead": False,
        "death_saves": {"successes": 0, "failures": 0}, "death_save_failures_added": 0, **extra,
    }  # fmt: skip


# Ash's save on a line the table reads: the result names no kind for the one who saved, so
# its natural die is left out, as on any check stored without its roller's kind.
KEPT_BY_PC_1 = {
    "tool": "saving_throw", "label": "Concentration (CON save) · pc-1 → Shield of Faith",
    "natural": None, "total": 10, "mode": "normal", "dc": 10, "success": True,
}  # fmt: skip


def test_damage_apply_on_a_concentrating_cleric_shows_the_save_she_made() -> None:
    assert dice_from([_op("damage_apply", _hurt(concentration=_kept(8)))]) == [KEPT_BY_PC_1]


def test_a_failed_concentration_save_says_the_spell_ends() -> None:
    (line,) = dice_from([_op("damage_apply", _hurt(concentration=_lost(7)))])
    assert line == {
        **KEPT_BY_PC_1, "total": 9, "success": False, "ends": "Shield of Faith ends",
    }  # fmt: skip


def test_a_gm_only_line_shows_the_concentration_saves_natural_die() -> None:
    (line,) = dice_from([_op("damage_apply", _hurt(concentration=_kept(8)))], gm_only=True)
    assert line == {**KEPT_BY_PC_1, "natural": 8}


def test_a_save_that_names_who_made_it_is_labelled_and_shown_as_a_saving_throw_is() -> None:
    """As saving_throw's results do: the name it says, and a character's natural die to all."""
    named = {**_save(8), "character_name": "Ash", "character_kind": "pc"}
    held = {"spell": "Shield of Faith", "kept": True, "save": named}
    (line,) = dice_from([_op("damage_apply", _hurt(concentration=held))])
    assert line == {
        **KEPT_BY_PC_1, "label": "Concentration (CON save) · Ash → Shield of Faith", "natural": 8,
    }  # fmt: skip


def _scimitar_on_ash(concentration: dict[str, Any]) -> dict[str, Any]:
    return {
        "attack": "Scimitar", "attacker_id": "mon-4", "attacker_kind": "monster",
        "attacker_name": "Goblin", "target_id": "pc-1", "target_name": "Ash", "hit": True,
        "critical": False,
        "to_hit": {"natural": 15, "rolls": [15], "mode": "normal", "bonus": 4, "total": 19,
                   "target_ac": 18},
        "damage": {"expression": "1d6+2", "total": 5, "damage_type": "slashing",
                   "effect": _hurt(concentration=concentration)},
    }  # fmt: skip


def test_an_attack_that_hits_a_concentrating_cleric_shows_her_save_after_the_hit() -> None:
    lines = dice_from([_op("attack", _scimitar_on_ash(_lost(5)))])

    assert lines == [
        {"tool": "attack", "label": "Scimitar", "attacker_id": "mon-4", "target_id": "pc-1",
         "attacker_name": "Goblin", "target_name": "Ash", "natural": None, "total": 19,
         "mode": "normal", "hit": True, "critical": False, "damage": 5,
         "damage_type": "slashing"},
        {"tool": "saving_throw", "label": "Concentration (CON save) · Ash → Shield of Faith",
         "natural": None, "total": 7, "mode": "normal", "dc": 10, "success": False,
         "ends": "Shield of Faith ends"},
    ]  # fmt: skip


def test_a_missed_attack_shows_no_concentration_save() -> None:
    missed = {**_scimitar_on_ash(_kept(8)), "hit": False, "damage": None}
    assert [line["tool"] for line in dice_from([_op("attack", missed)])] == ["attack"]


def _magic_missile(concentration: dict[str, Any]) -> dict[str, Any]:
    return {
        "spell": "magic_missile", "spell_name": "Magic Missile", "caster_id": "pc-3",
        "caster_name": "Wren", "target_id": "pc-1", "target_name": "Ash", "slot_level": 1,
        "darts": 3, "roll": dice.roll("3d4+3", Scripted([1, 1, 1])),
        "damage": {**_hurt(concentration=concentration), "hits": [2, 2, 2]},
    }  # fmt: skip


MISSILES = {
    "tool": "spell_cast", "label": "Magic Missile · Ash", "expression": "3d4+3", "total": 6,
    "addends": [1, 1, 1, 3], "dropped": [],
}  # fmt: skip
ASH_SAVES = {
    "tool": "saving_throw", "label": "Concentration (CON save) · Ash → Shield of Faith",
    "natural": None, "mode": "normal", "dc": 10,
}  # fmt: skip


def test_magic_missile_shows_a_concentration_save_per_dart_until_one_fails() -> None:
    held = {"spell": "Shield of Faith", "kept": False, "saves": [_save(10), _save(1)]}

    assert dice_from([_op("spell_cast", _magic_missile(held))]) == [
        MISSILES,
        {**ASH_SAVES, "total": 12, "success": True},
        {**ASH_SAVES, "total": 3, "success": False, "ends": "Shield of Faith ends"},
    ]


def test_sacred_flame_shows_the_dex_save_the_damage_then_the_concentration_save() -> None:
    dex = {
        **_save(1, dc=12), "ability": "dex", "ability_modifier": 0, "total": 1, "success": False,
        "character_id": "pc-1", "character_name": "Ash", "character_kind": "pc", "kind": "save",
    }  # fmt: skip
    cast = {
        "spell": "sacred_flame", "spell_name": "Sacred Flame", "caster_id": "pc-5",
        "caster_name": "Cai", "target_id": "pc-1", "target_name": "Ash", "slot_level": 0,
        "save": dex, "roll": dice.roll("1d8", Scripted([4])),
        "damage": {**_hurt(concentration=_kept(12)), "damage_type": "radiant"},
    }  # fmt: skip

    assert [(line["label"], line["total"]) for line in dice_from([_op("spell_cast", cast)])] == [
        ("Dex save · Ash", 1),
        ("Sacred Flame · Ash", 4),
        ("Concentration (CON save) · Ash → Shield of Faith", 14),
    ]


def test_a_fire_bolt_hit_shows_the_concentration_save_after_the_attack() -> None:
    bolt = {
        "spell": "fire_bolt", "spell_name": "Fire Bolt", "caster_id": "pc-3",
        "caster_name": "Wren", "attack": "Fire Bolt", "attacker_id": "pc-3",
        "target_id": "pc-1", "target_name": "Ash", "slot_level": 0, "hit": True,
        "critical": False, "to_hit": {"natural": 15, "rolls": [15], "mode": "normal",
                                      "total": 19},
        "damage": {"expression": "1d10", "total": 1, "damage_type": "fire",
                   "effect": _hurt(concentration=_lost(3))},
    }  # fmt: skip

    lines = dice_from([_op("spell_cast", bolt)])

    assert [(line["tool"], line["total"], line.get("ends")) for line in lines] == [
        ("attack", 19, None),
        ("saving_throw", 5, "Shield of Faith ends"),
    ]


def test_dropping_to_0_hp_ends_concentration_with_no_line() -> None:
    """Nothing was rolled for it: the narration says why the spell ended, the Dice panel has no
    roll to show."""
    dropped = {"spell": "Shield of Faith", "kept": False, "reason": "Ash dropped to 0 hit points"}
    assert dice_from([_op("damage_apply", _hurt(concentration=dropped))]) == []


def test_magic_missile_that_drops_the_caster_shows_only_the_saves_rolled_before() -> None:
    """A dart's save made, the next dart drops her to 0 HP: one save line, made, and no more."""
    held = {
        "spell": "Shield of Faith", "kept": False, "saves": [_save(10)],
        "reason": "Ash dropped to 0 hit points",
    }  # fmt: skip
    assert dice_from([_op("spell_cast", _magic_missile(held))]) == [
        MISSILES,
        {**ASH_SAVES, "total": 12, "success": True},
    ]


def test_a_monsters_concentration_save_shows_the_table_its_total_alone() -> None:
    """As the domain narrows it for a player (its total against the DC), and as a GM's call
    returns it whole on a line the table reads: no natural die either way."""
    narrowed = {"mode": "normal", "ability": "con", "bonus": 0, "total": 10, "dc": 10,
                "success": True}  # fmt: skip
    whole = {**narrowed, "natural": 10, "rolls": [10], "ability_modifier": 0, "proficiency": 0}
    expected = {
        "tool": "saving_throw", "label": "Concentration (CON save) · Goblin → Shield of Faith",
        "natural": None, "total": 10, "mode": "normal", "dc": 10, "success": True,
    }  # fmt: skip
    for save in (narrowed, whole):
        held = {"spell": "Shield of Faith", "kept": True, "save": save}
        hit = {
            "attack": "Mace", "attacker_id": "pc-1", "attacker_kind": "pc", "attacker_name": "Ash",
            "target_id": "mon-4", "target_name": "Goblin", "hit": True, "critical": False,
            "to_hit": {"natural": 14, "mode": "normal", "total": 17},
            "damage": {"total": 3, "damage_type": "bludgeoning", "effect": {"concentration": held}},
        }  # fmt: skip
        assert dice_from([_op("attack", hit)])[1] == expected
