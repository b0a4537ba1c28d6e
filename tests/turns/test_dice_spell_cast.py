"""A healing spell's roll shows in the room's dice panel as a potion's does: the dice and the
total, labelled with the spell and who it healed."""

from apps.turns.models import Operation
from apps.turns.services.publish import dice_from
from domain_servers.common import dice
from tests.turns.test_dice import Scripted


def test_the_dice_panel_gets_a_healing_spells_roll():
    roll = dice.roll("2d4+3", Scripted([1, 4]))
    cast = Operation(
        step=1, tool="spell_cast",
        result={"structuredContent": {"roll": roll, "spell_name": "Healing Word",
                                      "target_name": "Bram", "healed": 8, "slot_level": 2}},
    )  # fmt: skip
    assert dice_from([cast]) == [
        {"tool": "spell_cast", "label": "Healing Word · Bram", "expression": "2d4+3",
         "total": 8, "addends": [1, 4, 3], "dropped": []},
    ]  # fmt: skip


def test_a_refused_cast_shows_no_dice_line():
    refused = Operation(
        step=1, tool="spell_cast",
        result={"structuredContent": {"error": {"code": "invalid_request", "message": "no"}}},
    )  # fmt: skip
    assert dice_from([refused]) == []


def _fire_bolt(**extra):
    return {
        "spell": "fire_bolt", "spell_name": "Fire Bolt", "caster_id": "pc-1",
        "caster_name": "Wren", "attacker_id": "pc-1", "target_id": "mon-2",
        "target_name": "Goblin", "attack": "Fire Bolt", "slot_level": 0,
        "to_hit": {"natural": 14, "rolls": [14], "mode": "normal", "total": 18},
        **extra,
    }  # fmt: skip


def test_fire_bolt_shows_as_an_attack_roll_with_its_damage():
    hit = _fire_bolt(
        hit=True, critical=False,
        damage={"expression": "1d10", "total": 7, "damage_type": "fire", "effect": {}},
    )  # fmt: skip
    cast = Operation(step=1, tool="spell_cast", result={"structuredContent": hit})
    assert dice_from([cast]) == [
        {"tool": "attack", "label": "Fire Bolt", "attacker_id": "pc-1", "target_id": "mon-2",
         "attacker_name": "Wren", "target_name": "Goblin", "natural": 14, "total": 18,
         "mode": "normal", "hit": True, "critical": False, "damage": 7, "damage_type": "fire"},
    ]  # fmt: skip


def test_a_missed_fire_bolt_shows_no_damage():
    missed = _fire_bolt(hit=False, critical=False, damage=None)
    cast = Operation(step=1, tool="spell_cast", result={"structuredContent": missed})
    (line,) = dice_from([cast])
    assert (line["hit"], line["damage"], line["damage_type"]) == (False, None, None)


def _sacred_flame(natural, success, **extra):
    save = {
        "natural": natural, "rolls": [natural], "mode": "normal", "ability": "dex",
        "ability_modifier": 2, "proficiency": 0, "bonus": 0, "total": natural + 2, "dc": 12,
        "success": success, "character_id": "mon-2", "character_name": "Goblin",
        "character_kind": "monster", "kind": "save",
    }  # fmt: skip
    return {
        "spell": "sacred_flame", "spell_name": "Sacred Flame", "caster_id": "pc-1",
        "caster_name": "Ash", "target_id": "mon-2", "target_name": "Goblin", "slot_level": 0,
        "save": save, **extra,
    }  # fmt: skip


def test_sacred_flame_shows_the_save_then_the_damage_rolled():
    failed = _sacred_flame(5, False, roll=dice.roll("1d8", Scripted([6])), damage={})
    cast = Operation(step=1, tool="spell_cast", result={"structuredContent": failed})
    save = {"tool": "saving_throw", "label": "Dex save · Goblin", "total": 7, "mode": "normal",
            "dc": 12, "success": False}  # fmt: skip
    # The goblin's natural die would give away its DEX modifier: only a GM's line has it.
    assert dice_from([cast]) == [
        {**save, "natural": None},
        {"tool": "spell_cast", "label": "Sacred Flame · Goblin", "expression": "1d8",
         "total": 6, "addends": [6], "dropped": []},
    ]  # fmt: skip
    assert dice_from([cast], gm_only=True)[0] == {**save, "natural": 5}


def test_a_made_save_against_sacred_flame_shows_the_save_alone():
    made = _sacred_flame(15, True)
    cast = Operation(step=1, tool="spell_cast", result={"structuredContent": made})
    assert [(line["label"], line["success"]) for line in dice_from([cast])] == [
        ("Dex save · Goblin", True)
    ]
