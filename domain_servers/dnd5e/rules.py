"""SRD 5.1-style mechanics on plain character dicts; all randomness comes from a RandomStream."""

from __future__ import annotations

import heapq
import json
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from domain_servers.common import dice
from domain_servers.common.errors import DomainError, invalid
from domain_servers.common.random_stream import RandomStream

ABILITIES = ["str", "dex", "con", "int", "wis", "cha"]
SKILLS = {
    "acrobatics": "dex",
    "animal_handling": "wis",
    "arcana": "int",
    "athletics": "str",
    "deception": "cha",
    "history": "int",
    "insight": "wis",
    "intimidation": "cha",
    "investigation": "int",
    "medicine": "wis",
    "nature": "int",
    "perception": "wis",
    "performance": "cha",
    "persuasion": "cha",
    "religion": "int",
    "sleight_of_hand": "dex",
    "stealth": "dex",
    "survival": "wis",
}
CONDITIONS = [
    "blinded",
    "charmed",
    "deafened",
    "frightened",
    "grappled",
    "incapacitated",
    "invisible",
    "paralyzed",
    "petrified",
    "poisoned",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
]
DAMAGE_TYPES = [
    "acid",
    "bludgeoning",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "piercing",
    "poison",
    "psychic",
    "radiant",
    "slashing",
    "thunder",
]
# These fail every STR and DEX saving throw.
FAIL_STR_DEX_SAVES = {"paralyzed", "petrified", "stunned", "unconscious"}
# These give disadvantage on ability checks (not saves). Frightened does so only while the
# source of the fear is in sight; the rules know no line of sight, so it always applies.
CHECK_DISADVANTAGE = {
    "frightened": "{who} is frightened by a source taken to be in sight",
    "poisoned": "{who} is poisoned",
}
# A restrained creature has disadvantage on DEX saving throws.
DEX_SAVE_DISADVANTAGE = {"restrained"}
CANNOT_ACT = {"incapacitated", "paralyzed", "petrified", "stunned", "unconscious", "dead"}
# Incapacitated takes away actions and reactions only; the others also stop all movement.
CANNOT_MOVE = CANNOT_ACT - {"incapacitated"}
ATTACKER_DISADVANTAGE = {"blinded", "frightened", "poisoned", "prone", "restrained"}
TARGET_GRANTS_ADVANTAGE = {
    "blinded",
    "paralyzed",
    "petrified",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
}

TEMPLATES: dict[str, dict[str, Any]] = {
    "cleric": {
        "abilities": {"str": 13, "dex": 10, "con": 14, "int": 8, "wis": 15, "cha": 12},
        "hit_die": 8,
        "ac": 18,
        "speed": 30,
        "save_proficiencies": ["cha", "wis"],
        "skill_proficiencies": ["insight", "medicine"],
        "attacks": [
            {
                "name": "Mace",
                "ability": "str",
                "proficient": True,
                "damage": "1d6",
                "damage_type": "bludgeoning",
            }
        ],
    },
    "fighter": {
        "abilities": {"str": 15, "dex": 13, "con": 14, "int": 8, "wis": 12, "cha": 10},
        "hit_die": 10,
        "ac": 16,
        "speed": 30,
        "save_proficiencies": ["con", "str"],
        "skill_proficiencies": ["athletics", "perception"],
        "attacks": [
            {
                "name": "Longsword",
                "ability": "str",
                "proficient": True,
                "damage": "1d8",
                "damage_type": "slashing",
            }
        ],
    },
    "rogue": {
        "abilities": {"str": 8, "dex": 15, "con": 14, "int": 12, "wis": 10, "cha": 13},
        "hit_die": 8,
        "ac": 14,
        "speed": 30,
        "save_proficiencies": ["dex", "int"],
        "skill_proficiencies": ["acrobatics", "perception", "sleight_of_hand", "stealth"],
        "attacks": [
            {
                "name": "Shortsword",
                "ability": "dex",
                "proficient": True,
                "damage": "1d6",
                "damage_type": "piercing",
            }
        ],
    },
    "wizard": {
        "abilities": {"str": 8, "dex": 14, "con": 13, "int": 15, "wis": 12, "cha": 10},
        "hit_die": 6,
        "ac": 12,
        "speed": 30,
        "save_proficiencies": ["int", "wis"],
        "skill_proficiencies": ["arcana", "investigation"],
        "attacks": [
            {
                "name": "Fire Bolt",
                "ability": "int",
                "proficient": True,
                "damage": "1d10",
                "damage_type": "fire",
                "range": 120,
            }
        ],
    },
}


# SRD 5.1 full casters (the cleric and wizard tables) and the ability their spells use.
SPELLCASTING_ABILITY = {"cleric": "wis", "wizard": "int"}
# Spell slots per spell level (1st, 2nd, ...) at each character level, the SRD's Spellcasting
# table for full casters.
FULL_CASTER_SLOTS: dict[int, tuple[int, ...]] = {
    1: (2,),
    2: (3,),
    3: (4, 2),
    4: (4, 3),
    5: (4, 3, 2),
    6: (4, 3, 3),
    7: (4, 3, 3, 1),
    8: (4, 3, 3, 2),
    9: (4, 3, 3, 3, 1),
    10: (4, 3, 3, 3, 2),
    11: (4, 3, 3, 3, 2, 1),
    12: (4, 3, 3, 3, 2, 1),
    13: (4, 3, 3, 3, 2, 1, 1),
    14: (4, 3, 3, 3, 2, 1, 1),
    15: (4, 3, 3, 3, 2, 1, 1, 1),
    16: (4, 3, 3, 3, 2, 1, 1, 1),
    17: (4, 3, 3, 3, 2, 1, 1, 1, 1),
    18: (4, 3, 3, 3, 3, 1, 1, 1, 1),
    19: (4, 3, 3, 3, 3, 2, 1, 1, 1),
    20: (4, 3, 3, 3, 3, 2, 2, 1, 1),
}
# The spells the rules cast, by the kind of effect they have. `casting`: the part of the turn's
# budget it takes; `range` in feet (touch is 5).
# - "heal": one die (`die`) per slot level from the spell's own, plus the spellcasting modifier.
#   `no_effect_on`: the creature types it does nothing to (SRD: undead and constructs).
# - "damage": `darts` darts of `dart_die` + `dart_bonus` `damage_type` damage each, one more dart
#   per slot level above the spell's; they all strike the one target and never miss.
# - "attack": a ranged spell attack (d20 + proficiency + spellcasting modifier against AC), made
#   as `attack` makes one; a hit deals `damage` (one die) of `damage_type`.
# - "save": the target makes a `save` saving throw against the caster's spell save DC or takes
#   `damage` (one die) of `damage_type`.
# - "ac_bonus": the target (any creature in range, the caster too) gains `ac_bonus` to its AC
#   while the caster keeps concentrating on it.
# - "bless": up to `targets` creatures in range (the caster may be one), one more per slot level
#   above the spell's, add `dice` to every attack roll and saving throw they make while the
#   caster keeps concentrating on it.
# Level 0 is a cantrip: no slot, and its one die grows at 5th, 11th and 17th level.
# `concentration`: it lasts while its caster concentrates on it (up to `duration`).
# `needs_sight`: it targets "a creature (of your choice) that you can see", so never one the
# caster cannot see (an attack spell rolls at disadvantage instead; a touch needs no sight).
SPELLS: dict[str, dict[str, Any]] = {
    "cure_wounds": {
        "name": "Cure Wounds",
        "effect": "heal",
        "level": 1,
        "die": "d8",
        "casting": "action",
        "range": 5,
        "classes": ("cleric",),
        "no_effect_on": ("construct", "undead"),
    },
    "healing_word": {
        "name": "Healing Word",
        "effect": "heal",
        "level": 1,
        "die": "d4",
        "casting": "bonus_action",
        "range": 60,
        "classes": ("cleric",),
        "needs_sight": True,
        "no_effect_on": ("construct", "undead"),
    },
    "fire_bolt": {
        "name": "Fire Bolt",
        "effect": "attack",
        "level": 0,
        "damage": "1d10",
        "damage_type": "fire",
        "casting": "action",
        "range": 120,
        "classes": ("wizard",),
    },
    "sacred_flame": {
        "name": "Sacred Flame",
        "effect": "save",
        "level": 0,
        "save": "dex",
        "damage": "1d8",
        "damage_type": "radiant",
        "casting": "action",
        "range": 60,
        "classes": ("cleric",),
        "needs_sight": True,
    },
    "bless": {
        "name": "Bless",
        "effect": "bless",
        "level": 1,
        "dice": "1d4",
        "targets": 3,
        "casting": "action",
        "range": 30,
        "classes": ("cleric",),
        "concentration": True,
        "duration": "1 minute",
    },
    "shield_of_faith": {
        "name": "Shield of Faith",
        "effect": "ac_bonus",
        "level": 1,
        "ac_bonus": 2,
        "casting": "bonus_action",
        "range": 60,
        "classes": ("cleric",),
        "concentration": True,
        "duration": "10 minutes",
    },
    "magic_missile": {
        "name": "Magic Missile",
        "effect": "damage",
        "level": 1,
        "darts": 3,
        "dart_die": "d4",
        "dart_bonus": 1,
        "damage_type": "force",
        "casting": "action",
        "range": 120,
        "classes": ("wizard",),
        "needs_sight": True,
    },
}


def armor_class(char: dict[str, Any]) -> int:
    """The AC every read and attack roll sees: the stored one plus what spells on the creature
    give (Shield of Faith's +2). The same spell cast twice does not stack (SRD): the best of
    each spell counts."""
    best: dict[str, int] = {}
    for effect in char.get("effects", []):
        best[effect["spell"]] = max(best.get(effect["spell"], 0), effect.get("ac_bonus", 0))
    return char["ac"] + sum(best.values())


def ward(
    caster: dict[str, Any], target: dict[str, Any], key: str, spell: dict[str, Any]
) -> dict[str, Any]:
    """An AC spell laid on `target`: stored on it (so every read and attack sees it) and, as
    the caster's concentration, on the caster (so it can end)."""
    before = armor_class(target)
    caster["concentration"] = {"spell": key, "target_id": target["id"]}
    effect = {
        "spell": key,
        "name": spell["name"],
        "ac_bonus": spell["ac_bonus"],
        "from": caster["id"],
    }
    target["effects"] = [
        e for e in target.get("effects", []) if (e["spell"], e["from"]) != (key, caster["id"])
    ] + [effect]
    return {"ac_bonus": spell["ac_bonus"], "ac_before": before, "ac_after": armor_class(target)}


def max_targets(spell: dict[str, Any], slot_level: int) -> int:
    """How many creatures the spell targets at `slot_level`: one, or a several-target spell's
    `targets` and one more per slot level above its own (Bless: 3, 4 at 2nd level)."""
    if "targets" not in spell:
        return 1
    return spell["targets"] + slot_level - spell["level"]


def bless(
    caster: dict[str, Any], targets: list[dict[str, Any]], key: str, spell: dict[str, Any]
) -> dict[str, Any]:
    """A Bless laid on `targets`: stored on each (so every attack roll and save it makes sees
    it) and, as the caster's concentration, on the caster (so it can end on all of them)."""
    caster["concentration"] = {"spell": key, "target_ids": [t["id"] for t in targets]}
    effect = {"spell": key, "name": spell["name"], "dice": spell["dice"], "from": caster["id"]}
    for target in targets:
        target["effects"] = [
            e for e in target.get("effects", []) if (e["spell"], e["from"]) != (key, caster["id"])
        ] + [dict(effect)]
    return {"dice": spell["dice"]}


def blessed_roll(char: dict[str, Any], rng: RandomStream) -> dict[str, Any] | None:
    """The die a Bless on `char` adds to an attack roll or saving throw it makes, rolled next
    in the stream ({"roll": 3}), or None when nothing blesses it. Two casters' Blesses do not
    combine (SRD: the same spell's effects don't): one die."""
    die = next((e["dice"] for e in char.get("effects", []) if "dice" in e), None)
    if die is None:
        return None
    return {"roll": dice.roll(die, rng)["total"]}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... as the SRD names spell levels."""
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


# SRD 5.1 "Duration": a round is 6 seconds, so 1 minute is 10 rounds (Bless's); Shield of
# Faith's 10 minutes, 100; an hour, 600.
ROUNDS_PER_MINUTE = 10


def duration_rounds(spell: dict[str, Any]) -> int | None:
    """The rounds a spell's `duration` lasts ("1 minute": 10); None for one without a timed
    duration (instantaneous: it never lingers)."""
    if "duration" not in spell:
        return None
    amount, unit = spell["duration"].split()
    per = {"round": 1, "minute": ROUNDS_PER_MINUTE, "hour": 60 * ROUNDS_PER_MINUTE}[
        unit.removesuffix("s")
    ]
    return int(amount) * per


def rounds_left(ends: list[int], round_: int, turn_index: int) -> int:
    """The rounds a spell that ends at turn `ends` ([round, turn index]) still lasts at turn
    [`round_`, `turn_index`], a part round counted whole: 10 just after it is cast (ending
    on that turn 10 rounds on), 1 through its last round."""
    end_round, end_index = ends
    return end_round - round_ + (1 if turn_index < end_index else 0)


def duration_over(ends: list[int], round_: int, turn_index: int) -> bool:
    """Whether turn [`round_`, `turn_index`] starts at or after `ends`: the spell is over."""
    return (round_, turn_index) >= (ends[0], ends[1])


def concentration_targets(held: dict[str, Any]) -> list[str]:
    """The ids of the creatures a held spell is on. A one-target spell's concentration is
    stored as {"spell", "target_id"}, a several-target spell's (Bless) as {"spell",
    "target_ids"}: a campaign stored before Bless holds only the first."""
    return list(held["target_ids"]) if "target_ids" in held else [held["target_id"]]


def end_concentration(char: dict[str, Any]) -> dict[str, Any] | None:
    """End what `char` concentrates on: {"spell", "target_id"} or {"spell", "target_ids"} as
    it was, or None when it concentrated on nothing. The effect it held lapses with
    lapse_effects."""
    return char.pop("concentration", None)


def lapse_effects(characters: dict[str, dict[str, Any]]) -> list[str]:
    """Remove every spell effect whose caster no longer concentrates on it there; the ids of
    the creatures that lost one."""
    changed = []
    for char in characters.values():
        if "effects" not in char:
            continue
        kept = [e for e in char["effects"] if _still_held(characters, e, char["id"])]
        if len(kept) == len(char["effects"]):
            continue
        changed.append(char["id"])
        if kept:
            char["effects"] = kept
        else:
            del char["effects"]
    return sorted(changed)


def _still_held(
    characters: dict[str, dict[str, Any]], effect: dict[str, Any], target_id: str
) -> bool:
    held = (characters.get(effect["from"]) or {}).get("concentration")
    return (
        held is not None
        and held["spell"] == effect["spell"]
        and target_id in concentration_targets(held)
    )


def concentration_lost(char: dict[str, Any], reason: str) -> dict[str, Any] | None:
    """`char`'s concentration ends for `reason` (incapacitated, at 0 HP, a long rest): what a
    result says of it, or None when there was none."""
    held = end_concentration(char)
    if held is None:
        return None
    return {"spell": SPELLS[held["spell"]]["name"], "kept": False, "reason": reason}


def _concentration_after_damage(
    char: dict[str, Any], taken: int, rng: RandomStream | None, who: Who
) -> dict[str, Any] | None:
    """SRD 5.1: damage calls for a CON save, DC 10 or half the damage taken (temporary hit
    points' share counts), whichever is higher, or the concentration ends; at 0 HP (or dead)
    it ends with no save."""
    if "concentration" not in char:
        return None
    if is_dead(char):
        return concentration_lost(char, f"{who(char)} died")
    if char["hp"]["current"] == 0:
        return concentration_lost(char, f"{who(char)} dropped to 0 hit points")
    if taken <= 0 or rng is None:
        return None
    save = forced_save(char, rng, ability="con", dc=max(10, taken // 2), who=who)
    # Named as saving_throw names its roller: whoever shows the roll knows from this alone
    # whether its natural die may go to the table (a monster's gives away its modifier).
    save.update(
        {
            "character_id": char["id"],
            "character_name": who(char),
            "character_kind": char["kind"],
            "kind": "save",
        }
    )
    name = SPELLS[char["concentration"]["spell"]]["name"]
    if not save["success"]:
        end_concentration(char)
    return {"spell": name, "kept": save["success"], "save": save}


def spellcasting_class(char: dict[str, Any]) -> str | None:
    """The class a player character casts spells as (its template, for a cleric or a wizard);
    None for anyone else, monsters included."""
    template = char.get("template") if char.get("kind") == "pc" else None
    return template if template in SPELLCASTING_ABILITY else None


def known_spells(char: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The spells spell_cast accepts from `char`: its class's, none for a non-caster."""
    template = spellcasting_class(char)
    return {key: spell for key, spell in SPELLS.items() if template in spell["classes"]}


def spell_slots(template: str | None, level: int) -> dict[str, dict[str, int]]:
    """A new character's spell slots by spell level ("1": {"current", "max"}): a full caster's
    from the SRD table, none for anyone else."""
    if template not in SPELLCASTING_ABILITY:
        return {}
    return {
        str(spell_level): {"current": count, "max": count}
        for spell_level, count in enumerate(FULL_CASTER_SLOTS[level], start=1)
    }


def slots_shown(char: dict[str, Any]) -> dict[str, dict[str, int]]:
    """The character's spell slots as a read shows them, storing nothing: one stored before
    slots were kept has its table's, all unspent (it never had any to spend)."""
    if "spell_slots" in char:
        return char["spell_slots"]
    return spell_slots(spellcasting_class(char), char.get("level", 1))


def slots_of(char: dict[str, Any]) -> dict[str, dict[str, int]]:
    """The character's spell slots to spend or restore; one stored before slots were kept gets
    its table's now."""
    char["spell_slots"] = slots_shown(char)
    return char["spell_slots"]


def darts_of(spell: dict[str, Any], slot_level: int) -> int:
    """A damage spell's darts at a slot level: one more per level above the spell's."""
    return spell["darts"] + slot_level - spell["level"]


def damage_spell_expression(spell: dict[str, Any], slot_level: int) -> str:
    """Every dart's damage in one roll: each rolls its own die and adds its own bonus."""
    darts = darts_of(spell, slot_level)
    return f"{darts}{spell['dart_die']}+{darts * spell['dart_bonus']}"


def spell_attack(char: dict[str, Any], spell: dict[str, Any]) -> dict[str, Any]:
    """An attack spell as an attack entry its caster makes: proficient, with its spellcasting
    ability, so the attack bonus is proficiency + that modifier (and a cantrip's dice grow
    as damage_expression grows them)."""
    return {
        "name": spell["name"],
        "ability": SPELLCASTING_ABILITY[char["template"]],
        "proficient": True,
        "damage": spell["damage"],
        "damage_type": spell["damage_type"],
        "range": spell["range"],
    }


def spell_save_dc(char: dict[str, Any]) -> int:
    """8 + proficiency bonus + spellcasting modifier (SRD 5.1)."""
    ability = SPELLCASTING_ABILITY[char["template"]]
    return 8 + char["proficiency_bonus"] + modifier(char["abilities"][ability])


def cantrip_dice(char: dict[str, Any], die: str) -> str:
    """A cantrip's one die (1d10) as many times as the caster's level gives: one more at 5th,
    11th and 17th level."""
    level = char.get("level", 1)
    count = 1 + sum(level >= tier for tier in (5, 11, 17))
    return f"{count}{die.strip().lower()[1:]}"


def healing_spell_expression(char: dict[str, Any], spell: dict[str, Any], slot_level: int) -> str:
    """One die per slot level from the spell's own, plus the spellcasting modifier."""
    ability = SPELLCASTING_ABILITY[char["template"]]
    mod = modifier(char["abilities"][ability])
    dice_part = f"{1 + slot_level - spell['level']}{spell['die']}"
    return f"{dice_part}{mod:+d}" if mod else dice_part


def hit_dice(template: str | None, level: int) -> dict[str, int]:
    """A new character's Hit Dice: its level in dice of its class's hit die (d8 with no
    template, as its hit points are)."""
    die = TEMPLATES.get(template or "", {}).get("hit_die", 8)
    return {"die": die, "current": level, "max": level}


def hit_dice_shown(char: dict[str, Any]) -> dict[str, int]:
    """The character's Hit Dice as a read shows them, storing nothing: one stored before Hit
    Dice were kept has its full pool (it never had any to spend)."""
    if "hit_dice" in char:
        return char["hit_dice"]
    return hit_dice(char.get("template"), char.get("level", 1))


def hit_dice_of(char: dict[str, Any]) -> dict[str, int]:
    """The character's Hit Dice to spend or regain; one stored before they were kept gets its
    full pool now."""
    char["hit_dice"] = hit_dice_shown(char)
    return char["hit_dice"]


def long_rest(char: dict[str, Any]) -> dict[str, Any]:
    """SRD long rest: all lost hit points back, temporary ones gone, every spell slot back, and
    spent Hit Dice up to half the character's total (at least one). A spell held by
    concentration (10 minutes at most) does not outlast it: `concentration_ended` names it."""
    hp = char["hp"]
    before = dict(hp)
    hp["current"], hp["temp"] = hp["max"], 0
    slots = slots_of(char)
    for slot in slots.values():
        slot["current"] = slot["max"]
    pool = hit_dice_of(char)
    pool["current"] = min(pool["max"], pool["current"] + max(1, pool["max"] // 2))
    held = end_concentration(char)
    return {
        "character_id": char["id"],
        "hp_before": before,
        "hp_after": dict(hp),
        "spell_slots": {k: dict(v) for k, v in slots.items()},
        "hit_dice": dict(pool),
        **({"concentration_ended": SPELLS[held["spell"]]["name"]} if held else {}),
    }


FEET_PER_SQUARE = 5
MELEE_REACH = 5
# SRD 5.1 weapon and attack-cantrip distances by attack name, for attack entries that carry no
# reach or range of their own (characters created before attacks had them, plain stat blocks).
# "range"/"long_range" make an attack ranged (thrown when it also has a "reach").
KNOWN_DISTANCES: dict[str, dict[str, int]] = {
    "blowgun": {"range": 25, "long_range": 100},
    "dart": {"range": 20, "long_range": 60},
    "hand crossbow": {"range": 30, "long_range": 120},
    "heavy crossbow": {"range": 100, "long_range": 400},
    "light crossbow": {"range": 80, "long_range": 320},
    "longbow": {"range": 150, "long_range": 600},
    "net": {"range": 5, "long_range": 15},
    "shortbow": {"range": 80, "long_range": 320},
    "sling": {"range": 30, "long_range": 120},
    "dagger": {"reach": 5, "range": 20, "long_range": 60},
    "handaxe": {"reach": 5, "range": 20, "long_range": 60},
    "javelin": {"reach": 5, "range": 30, "long_range": 120},
    "light hammer": {"reach": 5, "range": 20, "long_range": 60},
    "spear": {"reach": 5, "range": 20, "long_range": 60},
    "trident": {"reach": 5, "range": 20, "long_range": 60},
    "glaive": {"reach": 10},
    "halberd": {"reach": 10},
    "lance": {"reach": 10},
    "pike": {"reach": 10},
    "whip": {"reach": 10},
    "chill touch": {"range": 120},
    "eldritch blast": {"range": 120},
    "fire bolt": {"range": 120},
    "guiding bolt": {"range": 120},
    "produce flame": {"range": 30},
    "ray of frost": {"range": 60},
}
# SRD 5.1 attack spells: the ability sets the attack bonus, but the spell's damage dice add no
# ability modifier (Fire Bolt is 1d10, not 1d10 + INT).
SPELL_ATTACKS = {
    "chill touch",
    "eldritch blast",
    "fire bolt",
    "guiding bolt",
    "produce flame",
    "ray of frost",
}


@lru_cache(maxsize=1)
def monsters() -> dict[str, dict[str, Any]]:
    path = Path(__file__).parent / "data" / "monsters.json"
    return json.loads(path.read_text())


def modifier(score: int) -> int:
    return (score - 10) // 2


def proficiency_bonus(level: int) -> int:
    return 2 + (level - 1) // 4


def hit_points(hit_die: int, con_score: int, level: int) -> int:
    con = modifier(con_score)
    first = max(1, hit_die + con)
    later = max(1, hit_die // 2 + 1 + con)
    return first + (level - 1) * later


def roll_d20(rng: RandomStream, advantage: bool, disadvantage: bool) -> dict[str, Any]:
    """Advantage and disadvantage cancel; otherwise two dice keep the better or worse."""
    mode = "normal"
    if advantage and not disadvantage:
        mode = "advantage"
    elif disadvantage and not advantage:
        mode = "disadvantage"
    rolls = [rng.randint(1, 20)]
    if mode != "normal":
        rolls.append(rng.randint(1, 20))
    if mode == "advantage":
        natural = max(rolls)
    elif mode == "disadvantage":
        natural = min(rolls)
    else:
        natural = rolls[0]
    return {"natural": natural, "rolls": rolls, "mode": mode}


def name_of(char: dict[str, Any]) -> str:
    """How a refusal names a creature when the caller gives no better way."""
    return char.get("name") or char["id"]


Who = Callable[[dict[str, Any]], str]


def is_dead(char: dict[str, Any]) -> bool:
    return "dead" in char["conditions"]


def check(
    char: dict[str, Any],
    rng: RandomStream,
    *,
    ability: str,
    dc: int | None,
    proficient: bool,
    advantage: bool,
    disadvantage: bool,
    bonus: int,
    save: bool = False,
    expertise: bool = False,
    advantage_reasons: list[str] | tuple[str, ...] = (),
    who: Who = name_of,
) -> dict[str, Any]:
    """Ability check or saving throw: success when total >= DC; naturals mean nothing here.
    With no DC (`dc=None`: the GM compares the total with something the rules do not hold, or
    a contest's other side) the result has neither `dc` nor `success`.
    `advantage_reasons` (a Dodge's DEX saves): the caller's own, said as `advantage_reasons`.

    Conditions (SRD): poisoned and frightened give disadvantage on ability checks, restrained
    on DEX saves; `disadvantage_reasons` names them (the caller's flags still cancel or add).
    A paralyzed, petrified, stunned or unconscious creature fails STR and DEX saves whatever
    it rolls; the die is still rolled and shown, with the reason."""
    conditions = set(char["conditions"])
    why_disadvantage = []
    if save:
        if ability == "dex":
            for condition in sorted(conditions & DEX_SAVE_DISADVANTAGE):
                why_disadvantage.append(f"{who(char)} is {condition}")
    else:
        for condition in sorted(conditions & set(CHECK_DISADVANTAGE)):
            why_disadvantage.append(CHECK_DISADVANTAGE[condition].format(who=who(char)))
    d20 = roll_d20(
        rng, advantage or bool(advantage_reasons), disadvantage or bool(why_disadvantage)
    )
    mod = modifier(char["abilities"][ability])
    prof = char["proficiency_bonus"] * (2 if expertise else 1) if proficient else 0
    # Bless adds its die to saving throws, never to ability checks (SRD 5.1).
    blessed = blessed_roll(char, rng) if save else None
    total = d20["natural"] + mod + prof + bonus + (blessed["roll"] if blessed else 0)
    result = {
        **d20,
        "ability": ability,
        "ability_modifier": mod,
        "proficiency": prof,
        "bonus": bonus,
        # Only when blessed: a save nothing blesses reads as it always has.
        **({"bless": blessed} if blessed else {}),
        "total": total,
    }
    if dc is not None:
        result.update(dc=dc, success=total >= dc)
    # Only when there are some: a check nothing touches reads as it always has.
    if advantage_reasons:
        result["advantage_reasons"] = list(advantage_reasons)
    if why_disadvantage:
        result["disadvantage_reasons"] = why_disadvantage
    failing = sorted(conditions & FAIL_STR_DEX_SAVES)
    if save and ability in ("str", "dex") and failing:
        result["success"] = False
        result["automatic_failure"] = f"{who(char)} is {failing[0]}"
    return result


def forced_save(
    char: dict[str, Any],
    rng: RandomStream,
    *,
    ability: str,
    dc: int,
    advantage_reasons: list[str] | tuple[str, ...] = (),
    who: Who = name_of,
) -> dict[str, Any]:
    """A saving throw an effect forces on `char`: its own save proficiency, no bonus, only the
    disadvantage its conditions give, and the advantage the caller names (a Dodge's)."""
    return check(
        char,
        rng,
        ability=ability,
        dc=dc,
        proficient=ability in char.get("save_proficiencies", []),
        advantage=False,
        disadvantage=False,
        bonus=0,
        save=True,
        advantage_reasons=advantage_reasons,
        who=who,
    )


def attacks_per_action(char: dict[str, Any]) -> int:
    """Attacks one Attack action makes: a fighter's Extra Attack adds one at 5th, 11th and
    20th level; the other templates have none."""
    if char.get("kind") != "pc" or char.get("template") != "fighter":
        return 1
    return 1 + sum(char.get("level", 1) >= tier for tier in (5, 11, 20))


# SRD 5.1 weapons with the finesse property, by attack name.
FINESSE_WEAPONS = {"dagger", "dart", "rapier", "scimitar", "shortsword", "whip"}


def is_finesse(attack: dict[str, Any]) -> bool:
    """A finesse weapon: one the SRD names so, or a melee attack listed with DEX (only a
    finesse weapon lets a melee attack use it)."""
    if attack["name"].strip().lower() in FINESSE_WEAPONS:
        return True
    return attack.get("ability") == "dex" and attack_distances(attack)["reach"] is not None


def attack_ability(char: dict[str, Any], attack: dict[str, Any]) -> str:
    """The ability an attack rolls with, to hit and for damage alike: its own, but a finesse
    weapon's wielder chooses STR or DEX (SRD 5.1), and the rules choose the higher (the
    listed one on a tie)."""
    own = attack["ability"]
    if not is_finesse(attack):
        return own
    other = "dex" if own == "str" else "str"
    if own not in ("str", "dex") or char["abilities"][other] <= char["abilities"][own]:
        return own
    return other


def sneak_attack_dice(char: dict[str, Any], attack: dict[str, Any]) -> str | None:
    """A rogue's Sneak Attack dice for this attack: 1d6 per two levels, rounded up, with a
    finesse or ranged weapon, whichever ability it attacks with; None for anyone else or any
    other attack (a thrown weapon without finesse is no ranged weapon)."""
    if char.get("kind") != "pc" or char.get("template") != "rogue":
        return None
    if attack["name"].strip().lower() in SPELL_ATTACKS:
        return None
    if not is_finesse(attack) and attack_distances(attack)["reach"] is not None:
        return None
    return f"{(char.get('level', 1) + 1) // 2}d6"


# SRD 5.1: anyone can make an unarmed strike (a punch, kick, head-butt): a melee attack it is
# proficient with, dealing 1 + its STR modifier bludgeoning damage, no die rolled.
UNARMED_STRIKE: dict[str, Any] = {
    "name": "Unarmed Strike",
    "ability": "str",
    "proficient": True,
    "damage": "1",
    "damage_type": "bludgeoning",
}


def attacks_of(char: dict[str, Any]) -> list[dict[str, Any]]:
    """The attacks a creature can choose from: a player character's listed ones, then its
    Unarmed Strike unless listed; a monster's stat block lists all it does."""
    listed = list(char["attacks"])
    if char.get("kind") != "pc" or any(
        a["name"].strip().lower() == UNARMED_STRIKE["name"].lower() for a in listed
    ):
        return listed
    return [*listed, dict(UNARMED_STRIKE)]


def attack_bonus(char: dict[str, Any], attack: dict[str, Any]) -> int:
    if "bonus" in attack:
        return attack["bonus"]
    mod = modifier(char["abilities"][attack_ability(char, attack)])
    return mod + (char["proficiency_bonus"] if attack.get("proficient") else 0)


# Attack cantrips and their one die at 1st level: one more die at 5th, 11th and 17th level.
CANTRIP_DICE = {
    "chill touch": "1d8",
    "fire bolt": "1d10",
    "produce flame": "1d8",
    "ray of frost": "1d8",
}


def damage_expression(char: dict[str, Any], attack: dict[str, Any]) -> str:
    if "bonus" in attack:  # stat blocks already include the modifier
        return attack["damage"]
    spell = attack["name"].strip().lower()
    if CANTRIP_DICE.get(spell) == attack["damage"].strip().lower():
        # An entry that already gives the grown dice is taken as written.
        return cantrip_dice(char, attack["damage"])
    if spell in SPELL_ATTACKS:
        return attack["damage"]
    mod = modifier(char["abilities"][attack_ability(char, attack)])
    return f"{attack['damage']}{mod:+d}" if mod else attack["damage"]


def grid_distance(a: list[int], b: list[int]) -> int:
    """Feet between two squares on the SRD's simple grid: every square, diagonals too, is 5 ft."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) * FEET_PER_SQUARE


def grid_path(
    start: list[int],
    goal: list[int],
    *,
    width: int,
    height: int,
    impassable: set[tuple[int, int]],
    difficult: set[tuple[int, int]],
    crawling: bool,
    route: bool = False,
) -> dict[str, Any] | None:
    """The cheapest way from `start` to `goal` square by square (diagonals 5 ft), as
    {"feet": distance covered, "cost": movement spent}, or None when there is none; with
    `route`, also "squares": every square of the way, `start` and `goal` included.

    `impassable` squares (hostile creatures') cannot be entered; each foot into a `difficult`
    one (another creature's space) costs 1 extra foot, and so does each foot crawled."""
    goal_square = (goal[0], goal[1])
    origin = (start[0], start[1])
    best = {origin: (0, 0)}
    came_from: dict[tuple[int, int], tuple[int, int]] = {}
    queue = [(0, 0, origin)]
    while queue:
        cost, feet, square = heapq.heappop(queue)
        if square == goal_square:
            found: dict[str, Any] = {"feet": feet, "cost": cost}
            if route:
                way = [square]
                while way[-1] != origin:
                    way.append(came_from[way[-1]])
                found["squares"] = [list(step) for step in reversed(way)]
            return found
        if best.get(square, (cost, feet)) < (cost, feet):
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                step = (square[0] + dx, square[1] + dy)
                if step == square or step in impassable:
                    continue
                if not (0 <= step[0] < width and 0 <= step[1] < height):
                    continue
                price = step_price(step, difficult=difficult, crawling=crawling)
                entry = (cost + price, feet + FEET_PER_SQUARE)
                if entry < best.get(step, (10**9, 0)):
                    best[step] = entry
                    came_from[step] = square
                    heapq.heappush(queue, (*entry, step))
    return None


def step_price(step: tuple[int, int], *, difficult: set[tuple[int, int]], crawling: bool) -> int:
    """The movement one step into `step` costs: 5 ft, and 5 ft more for each of a `difficult`
    square (another creature's space) and crawling."""
    return FEET_PER_SQUARE * (1 + (step in difficult) + crawling)


def route_cost(squares: list[list[int]], *, difficult: set[tuple[int, int]], crawling: bool) -> int:
    """The movement a walk along `squares` (its first square the one it starts on) costs."""
    return sum(
        step_price((s[0], s[1]), difficult=difficult, crawling=crawling) for s in squares[1:]
    )


def stopped_before(
    squares: list[list[int]], *, unseen: set[tuple[int, int]], difficult: set[tuple[int, int]]
) -> int | None:
    """Where a walk along `squares` (its first square the one it starts on) stops when it runs
    into a creature it did not know was there (one of `unseen`): the index of the last square
    before it that the walker may end its move in (not a `difficult` one, another creature's
    space); None when nothing unseen is in the way."""
    hit = next((i for i, s in enumerate(squares) if (s[0], s[1]) in unseen), None)
    if hit is None:
        return None
    stop = hit - 1
    while stop > 0 and (squares[stop][0], squares[stop][1]) in difficult:
        stop -= 1
    return stop


def melee_reach(char: dict[str, Any]) -> int | None:
    """The farthest a creature's melee attacks reach, in feet; None when it has none. A player
    character's Unarmed Strike reaches 5 ft, listed or not (SRD 5.1)."""
    reaches = [attack_distances(a)["reach"] for a in attacks_of(char)]
    return max((r for r in reaches if r is not None), default=None)


def attack_distances(attack: dict[str, Any]) -> dict[str, int | None]:
    """How far an attack reaches: `reach` (melee) and `range`/`long_range` (ranged or thrown).

    The entry's own fields win; otherwise the SRD distances for its name; otherwise a plain
    melee attack with a 5 ft reach."""
    own = {k: attack[k] for k in ("reach", "range", "long_range") if k in attack}
    known = own or KNOWN_DISTANCES.get(attack["name"].strip().lower(), {})
    normal = known.get("range")
    reach = known.get("reach", MELEE_REACH if normal is None else None)
    long_range = known.get("long_range", normal) if normal is not None else None
    return {"reach": reach, "range": normal, "long_range": long_range}


def distance_text(attack: dict[str, Any]) -> str:
    """How far an attack reaches, as a player reads it: "Longsword reaches 5 ft"."""
    d = attack_distances(attack)
    span = None
    if d["range"] is not None:
        span = f"{d['range']} ft"
        if d["long_range"] != d["range"]:
            span = f"{d['range']}/{d['long_range']} ft"
    if d["reach"] is None:
        return f"{attack['name']} has a range of {span}"
    text = f"{attack['name']} reaches {d['reach']} ft"
    return f"{text}, or {span} thrown" if span else text


LONG_RANGE = "long range"
# A ranged attack's disadvantage from hidden monsters alone beside the attacker: it says a foe
# stands there, so only the GM reads it.
HIDDEN_HOSTILE_WITHIN_5FT = "hidden hostile within 5 ft"


def attack_at_distance(
    attack: dict[str, Any], distance: int, hostile_within_5ft: bool, *, hidden: bool = False
) -> dict[str, Any] | None:
    """How an attack is made at `distance` feet, or None when the target is out of reach.

    Within reach it is a melee attack. Otherwise a ranged (or thrown) attack up to its long
    range; beyond its normal range, or with a hostile creature within 5 ft of the attacker, it
    has disadvantage. `hidden`: every such hostile is a hidden monster, whose reason is the
    GM's (HIDDEN_HOSTILE_WITHIN_5FT)."""
    d = attack_distances(attack)
    if d["reach"] is not None and distance <= d["reach"]:
        return {"distance_ft": distance, "kind": "melee", "disadvantage": []}
    if d["range"] is None or distance > d["long_range"]:
        return None
    reasons = []
    if distance > d["range"]:
        reasons.append(LONG_RANGE)
    if hostile_within_5ft:
        reasons.append(HIDDEN_HOSTILE_WITHIN_5FT if hidden else "hostile within 5 ft")
    return {"distance_ft": distance, "kind": "ranged", "disadvantage": reasons}


def _stat_block(char: dict[str, Any]) -> dict[str, Any]:
    """The stat block a monster was spawned from; {} for a character."""
    return monsters().get(char.get("monster_key") or "", {})


def _from_block(char: dict[str, Any], field: str) -> list[str]:
    """A stat block list the creature carries; a monster stored before its stat block named it
    takes it from the stat block."""
    if field in char:
        return char[field]
    return _stat_block(char).get(field, [])


def condition_immunities(char: dict[str, Any]) -> list[str]:
    """The conditions a creature cannot be given."""
    return _from_block(char, "condition_immunities")


# The rogue template's Expertise when none is chosen: two skills at 1st level, two more at 6th.
ROGUE_EXPERTISE = (("perception", "stealth"), ("acrobatics", "sleight_of_hand"))


def rogue_expertise_count(level: int) -> int:
    """Skills a rogue of this level has Expertise in (SRD 5.1: two at 1st, two more at 6th)."""
    return 4 if level >= 6 else 2


def skill_expertise(char: dict[str, Any]) -> list[str]:
    """Skills whose proficiency bonus is doubled (a goblin's Stealth +6, a rogue's Expertise).
    A rogue stored before characters named theirs has the template's picks."""
    if "skill_expertise" not in char and char.get("template") == "rogue":
        return default_rogue_expertise(char.get("level", 1), char.get("skill_proficiencies", []))
    return _from_block(char, "skill_expertise")


def default_rogue_expertise(level: int, skills: list[str]) -> list[str]:
    """The rogue template's Expertise picks among its proficient skills: the template's own in
    order, then its other proficient skills alphabetically, so a rogue proficient in other
    skills still has as many as its level gives (SRD 5.1: chosen among its proficiencies)."""
    picks = [skill for tier in ROGUE_EXPERTISE for skill in tier]
    eligible = [s for s in picks if s in skills] + sorted(set(skills) - set(picks))
    return sorted(eligible[: rogue_expertise_count(level)])


def skill_bonus(char: dict[str, Any], skill: str) -> int:
    """A skill's check bonus: its ability's modifier, and proficiency (doubled by Expertise)
    if proficient."""
    bonus = modifier(char["abilities"][SKILLS[skill]])
    if skill in char.get("skill_proficiencies", []):
        doubled = 2 if skill in skill_expertise(char) else 1
        bonus += char["proficiency_bonus"] * doubled
    return bonus


def passive_perception(char: dict[str, Any]) -> int:
    """10 + the Wisdom (Perception) modifier, proficiency (doubled by Expertise) if proficient;
    -5 with a condition that gives disadvantage on checks (SRD 5.1)."""
    score = 10 + skill_bonus(char, "perception")
    if set(char["conditions"]) & set(CHECK_DISADVANTAGE):
        score -= 5
    return score


SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")


def size(char: dict[str, Any]) -> str:
    """A creature's size: its own, its stat block's, else Medium (every character here)."""
    return char.get("size") or _stat_block(char).get("size") or "medium"


def creature_type(char: dict[str, Any]) -> str | None:
    """A creature's SRD type (undead, beast, humanoid...): its own, its stat block's (a monster
    stored before types were kept), humanoid for a player character (every template's race);
    None for a monster whose stat block names none."""
    if char.get("kind") == "pc":
        return char.get("creature_type") or "humanoid"
    return char.get("creature_type") or _stat_block(char).get("type")


def check_spell_affects(
    spell: dict[str, Any], target: dict[str, Any], *, who: Who = name_of
) -> None:
    """Refused before anything is spent: a spell on a creature of a type it has no effect on
    (Cure Wounds and Healing Word on undead or constructs)."""
    kind = creature_type(target)
    if kind in spell.get("no_effect_on", ()):
        types = " or ".join(
            "undead" if t == "undead" else f"{t}s"
            for t in sorted(spell["no_effect_on"], reverse=True)
        )
        what = kind if kind == "undead" else f"a {kind}"
        raise invalid(f"{spell['name']} has no effect on {types}, and {who(target)} is {what}")


def _cantrip_with_the_action(spell: dict[str, Any]) -> bool:
    return spell["level"] == 0 and spell["casting"] == "action"


def check_spell_this_turn(
    spell: dict[str, Any], cast_before: list[dict[str, Any]], *, who: str
) -> None:
    """SRD 5.1, a spell cast with a bonus action: its caster "can't cast another spell during the
    same turn, except for a cantrip with a casting time of 1 action". Refused before anything is
    spent: `spell` after a bonus-action spell this turn, or a bonus-action `spell` after any
    other spell this turn (`cast_before`, in order)."""
    for prior in cast_before:
        if prior["casting"] == "bonus_action" and not _cantrip_with_the_action(spell):
            raise invalid(
                f"{who} cast {prior['name']} with a bonus action this turn: the only other spell "
                f"{who} can cast this turn is a cantrip with a casting time of 1 action, and "
                f"{spell['name']} is a level {spell['level']} spell"
            )
        if spell["casting"] == "bonus_action" and not _cantrip_with_the_action(prior):
            raise invalid(
                f"{who} cast {prior['name']} this turn: {spell['name']} is cast with a bonus "
                "action, which allows no other spell in the same turn but a cantrip with a "
                "casting time of 1 action"
            )


def traits(char: dict[str, Any]) -> list[str]:
    """Stat block traits the rules apply: undead_fortitude, pack_tactics, nimble_escape. A
    monster stored before its stat block listed one (a goblin's Nimble Escape) has it too."""
    return sorted({*_from_block(char, "traits"), *_stat_block(char).get("traits", [])})


def bonus_combat_actions(char: dict[str, Any]) -> tuple[set[str], str]:
    """The combat actions a creature may take as a bonus action, and the feature that says so
    (or why none yet): a rogue's Cunning Action from 2nd level (Dash, Disengage, Hide), a
    goblin's Nimble Escape (Disengage, Hide)."""
    if char.get("kind") == "pc" and char.get("template") == "rogue":
        if char.get("level", 1) >= 2:
            return {"dash", "disengage", "hide"}, "Cunning Action: Dash, Disengage or Hide"
        return set(), "a rogue's Cunning Action comes at 2nd level"
    if "nimble_escape" in traits(char):
        return {"disengage", "hide"}, "Nimble Escape: Disengage or Hide"
    return set(), ""


def adjust_damage(char: dict[str, Any], amount: int, damage_type: str | None) -> int:
    if damage_type in char.get("immunities", []):
        return 0
    # SRD: a petrified creature has resistance to all damage (resistances do not stack).
    if damage_type in char.get("resistances", []) or "petrified" in char["conditions"]:
        amount //= 2
    if damage_type in char.get("vulnerabilities", []):
        amount *= 2
    return amount


def apply_damage(
    char: dict[str, Any],
    amount: int,
    damage_type: str | None,
    critical: bool = False,
    *,
    rng: RandomStream | None = None,
    who: Who = name_of,
) -> dict[str, Any]:
    """Resistance/vulnerability/immunity, then temp HP, then HP; 0 HP starts dying.

    Undead Fortitude (`rng` rolls it): damage that drops the creature to 0 HP, unless radiant
    or from a critical hit, calls for a CON save against DC 5 + the damage taken; on a success
    it drops to 1 HP instead."""
    if is_dead(char):
        raise invalid(f"{who(char)} is dead and cannot take damage")
    hp = char["hp"]
    adjusted = adjust_damage(char, max(0, amount), damage_type)
    before = dict(hp)
    absorbed = min(hp["temp"], adjusted)
    hp["temp"] -= absorbed
    remaining = adjusted - absorbed
    failures_added = 0
    died = False
    dropped = False
    fortitude = None
    if remaining > 0:
        if hp["current"] == 0:
            # Damage at 0 HP: a stable creature is dying again; a failed death save (two on a
            # critical), or death if massive.
            _remove(char, "stable")
            if remaining >= hp["max"]:
                died = True
            else:
                failures_added = 2 if critical else 1
                char["death_saves"]["failures"] += failures_added
                died = char["death_saves"]["failures"] >= 3
        else:
            overflow = remaining - hp["current"]
            hp["current"] = max(0, hp["current"] - remaining)
            if (
                hp["current"] == 0
                and rng is not None
                and "undead_fortitude" in traits(char)
                and damage_type != "radiant"
                and not critical
            ):
                fortitude = forced_save(char, rng, ability="con", dc=5 + adjusted, who=who)
                if fortitude["success"]:
                    hp["current"] = 1
            if hp["current"] == 0:
                dropped = True
                if char["kind"] == "monster" or overflow >= hp["max"]:
                    died = True
                else:
                    _add(char, "unconscious")
                    _add(char, "prone")
                    _remove(char, "stable")
                    char["death_saves"] = {"successes": 0, "failures": 0}
    # As they stood when the damage landed: death resets them, a narration still counts them.
    death_saves = dict(char["death_saves"])
    if died:
        _kill(char)
    concentration = _concentration_after_damage(char, adjusted, rng, who)
    result = {
        "target_id": char["id"],
        "raw": amount,
        "damage_type": damage_type,
        "adjusted": adjusted,
        "absorbed_by_temp_hp": absorbed,
        "hp_before": before,
        "hp_after": dict(hp),
        "dropped_to_zero": dropped,
        "death_save_failures_added": failures_added,
        "death_saves": death_saves,
        "dead": is_dead(char),
    }
    if fortitude is not None:
        result["undead_fortitude"] = fortitude
    if concentration is not None:
        result["concentration"] = concentration
    return result


def apply_hits(
    char: dict[str, Any],
    hits: list[int],
    damage_type: str | None,
    *,
    rng: RandomStream | None = None,
    who: Who = name_of,
) -> dict[str, Any]:
    """Several hits at once (a spell's darts), each landing as apply_damage lands one, until
    the creature is dead; the result is apply_damage's for them together, with `hits`, each
    hit's damage as taken (the later ones 0 once it died)."""
    results = []
    for amount in hits:
        if is_dead(char):
            break
        results.append(apply_damage(char, amount, damage_type, rng=rng, who=who))
    last = results[-1]
    combined = {
        **last,
        "raw": sum(hits),
        "adjusted": sum(r["adjusted"] for r in results),
        "absorbed_by_temp_hp": sum(r["absorbed_by_temp_hp"] for r in results),
        "hp_before": results[0]["hp_before"],
        "dropped_to_zero": any(r["dropped_to_zero"] for r in results),
        "death_save_failures_added": sum(r["death_save_failures_added"] for r in results),
        "hits": [r["adjusted"] for r in results] + [0] * (len(hits) - len(results)),
    }
    fortitude = [r["undead_fortitude"] for r in results if "undead_fortitude" in r]
    if fortitude:
        combined["undead_fortitude"] = fortitude[-1]
    # One save per hit (each dart is its own damage) until the concentration ends.
    held = [r["concentration"] for r in results if "concentration" in r]
    combined.pop("concentration", None)
    if held:
        combined["concentration"] = {
            "spell": held[0]["spell"],
            "kept": held[-1]["kept"],
            "saves": [c["save"] for c in held if "save" in c],
            **({"reason": held[-1]["reason"]} if "reason" in held[-1] else {}),
        }
    return combined


def grant_temp_hp(char: dict[str, Any], amount: int, *, who: Who = name_of) -> dict[str, Any]:
    """Temporary hit points do not stack: the creature keeps the higher of what it has and
    what it is given. At 0 HP they neither wake nor stabilise it (SRD)."""
    if is_dead(char):
        raise invalid(f"{who(char)} is dead and cannot gain temporary hit points")
    hp = char["hp"]
    before = hp["temp"]
    hp["temp"] = max(before, amount)
    return {
        "target_id": char["id"],
        "amount": amount,
        "temp_hp_before": before,
        "temp_hp_after": hp["temp"],
        "replaced": amount > before,
    }


def check_can_heal(char: dict[str, Any], *, who: Who = name_of) -> None:
    """Refused before anything is spent: the dead, and a creature with nothing to heal."""
    if is_dead(char):
        raise invalid(f"{who(char)} is dead and cannot be healed")
    hp = char["hp"]
    if hp["current"] >= hp["max"]:
        if char["kind"] == "monster":
            # A monster's hit points are its hidden stat block, and a GM's refusal may be read
            # by a model answered at the public view.
            raise invalid(f"{who(char)} is already at full hit points")
        raise invalid(f"{who(char)} is already at full hit points ({hp['current']}/{hp['max']})")


def heal(char: dict[str, Any], amount: int, *, who: Who = name_of) -> dict[str, Any]:
    check_can_heal(char, who=who)
    hp = char["hp"]
    before = hp["current"]
    hp["current"] = min(hp["max"], hp["current"] + amount)
    revived = before == 0 and hp["current"] > 0
    if revived:
        _remove(char, "unconscious")
        _remove(char, "stable")
        char["death_saves"] = {"successes": 0, "failures": 0}
    return {
        "target_id": char["id"],
        "healed": hp["current"] - before,
        "hp_before": before,
        "hp_after": hp["current"],
        "revived": revived,
    }


def short_rest(
    char: dict[str, Any], dice_count: int, rng: RandomStream, *, who: Who = name_of
) -> dict[str, Any]:
    """SRD short rest: each Hit Die spent rolls the hit die plus the CON modifier (never below
    0 a die) and heals that much. Only a long rest needs 1 hit point at its start: a stable
    character at 0 HP spends Hit Dice too, and comes to if they heal it (`revived`). Refused,
    before anything is spent or rolled, for the dead, the dying (their death saves go on, so
    there is no hour of rest), at full HP and with fewer dice left than asked. A spell held by
    concentration (10 minutes at most) does not outlast the rest (an hour at least):
    `concentration_ended` names it."""
    hp = char["hp"]
    if is_dead(char):
        raise invalid(f"{who(char)} is dead and cannot rest")
    if hp["current"] == 0 and "stable" not in char["conditions"]:
        raise DomainError(
            "invalid_request",
            f"{who(char)} is dying (0 hit points, not stable) and cannot rest while death "
            "saving throws go on",
            recovery=(
                f"Once {who(char)} is stable (three successes) or healed, a short rest can "
                "spend Hit Dice, even at 0 hit points"
            ),
        )
    if hp["current"] >= hp["max"]:
        raise invalid(f"{who(char)} is already at full hit points ({hp['current']}/{hp['max']})")
    pool = hit_dice_shown(char)
    if pool["current"] < dice_count:
        raise invalid(
            f"{who(char)} has {pool['current']} of {pool['max']} Hit Dice left, "
            f"not the {dice_count} asked"
        )
    pool = hit_dice_of(char)
    con = modifier(char["abilities"]["con"])
    total_mod = dice_count * con
    expression = f"{dice_count}d{pool['die']}" + (f"{total_mod:+d}" if total_mod else "")
    roll = dice.roll(expression, rng)
    kept = [value for term in roll["rolls"] for value in term["kept"]]
    amount = sum(max(0, value + con) for value in kept)
    pool["current"] -= dice_count
    healed = heal(char, amount, who=who)
    held = end_concentration(char)
    return {
        "character_id": char["id"],
        "dice_spent": dice_count,
        "con_modifier": con,
        "roll": roll,
        "healed": healed["healed"],
        "hp_before": healed["hp_before"],
        "hp_after": healed["hp_after"],
        "hp_max": hp["max"],
        "hit_dice": dict(pool),
        # Only when it came to from 0 HP: a rest from above 0 reads as it always has.
        **({"revived": True} if healed["revived"] else {}),
        **({"concentration_ended": SPELLS[held["spell"]]["name"]} if held else {}),
    }


def check_can_death_save(char: dict[str, Any], *, who: Who = name_of) -> None:
    """Only a dying player character (0 HP, neither stable nor dead) makes death saves."""
    if char["kind"] != "pc":
        raise invalid("only player characters make death saves")
    if is_dead(char):
        raise invalid(f"{who(char)} is dead")
    if char["hp"]["current"] > 0:
        raise invalid(f"{who(char)} is not dying")
    if "stable" in char["conditions"]:
        raise invalid(f"{who(char)} is stable and makes no death saves (until taking damage again)")


def death_save(char: dict[str, Any], rng: RandomStream, *, who: Who = name_of) -> dict[str, Any]:
    check_can_death_save(char, who=who)
    natural = rng.randint(1, 20)
    # A death saving throw is a saving throw (SRD 5.1): Bless adds its die, and 10 or more
    # with it succeeds; a 1 or a 20 is still the d20's own.
    blessed = blessed_roll(char, rng)
    total = natural + (blessed["roll"] if blessed else 0)
    saves = char["death_saves"]
    outcome = "failure"
    if natural == 20:
        char["hp"]["current"] = 1
        _remove(char, "unconscious")
        char["death_saves"] = {"successes": 0, "failures": 0}
        outcome = "revived"
    elif natural == 1:
        saves["failures"] += 2
        outcome = "critical_failure"
    elif total >= 10:
        saves["successes"] += 1
        outcome = "success"
    else:
        saves["failures"] += 1
    if outcome != "revived":
        if saves["failures"] >= 3:
            _kill(char)
            outcome = "dead"
        elif saves["successes"] >= 3:
            _add(char, "stable")
            char["death_saves"] = {"successes": 0, "failures": 0}
            outcome = "stable"
    return {
        "natural": natural,
        # Only when blessed: a death save nothing blesses reads as it always has.
        **({"bless": blessed, "total": total} if blessed else {}),
        "outcome": outcome,
        "death_saves": dict(char["death_saves"]),
        "hp": dict(char["hp"]),
        "conditions": list(char["conditions"]),
    }


def check_can_attack(
    attacker: dict[str, Any], target: dict[str, Any], *, who: Who = name_of
) -> None:
    """The attacker must be able to act and the target must still be alive."""
    if is_dead(attacker):
        raise invalid(f"{who(attacker)} is dead and cannot attack")
    if set(attacker["conditions"]) & CANNOT_ACT:
        raise invalid(f"{who(attacker)} cannot act while {', '.join(attacker['conditions'])}")
    if is_dead(target):
        raise invalid(f"{who(target)} is already dead")


def attack_modes(
    attacker: dict[str, Any],
    target: dict[str, Any],
    *,
    within_5ft: bool,
    who: Who = name_of,
) -> tuple[list[str], list[str]]:
    """Why the conditions give an attack advantage and disadvantage, as players read it.

    A prone target gives advantage to an attacker within 5 ft and disadvantage from farther."""
    advantage, disadvantage = [], []
    # An unseen attacker has advantage; an unseen target imposes disadvantage.
    if "invisible" in attacker["conditions"]:
        advantage.append(f"{who(attacker)} is invisible")
    if "invisible" in target["conditions"]:
        disadvantage.append(f"{who(target)} is invisible")
    for condition in sorted(set(attacker["conditions"]) & ATTACKER_DISADVANTAGE):
        disadvantage.append(f"{who(attacker)} is {condition}")
    for condition in sorted(set(target["conditions"]) & TARGET_GRANTS_ADVANTAGE):
        if condition == "prone" and not within_5ft:
            disadvantage.append(f"{who(target)} is prone and more than 5 ft away")
        else:
            advantage.append(f"{who(target)} is {condition}")
    return advantage, disadvantage


# A hit from within 5 ft on a creature with one of these is a critical hit.
CRITICAL_WITHIN_5FT = {"paralyzed", "unconscious"}


def resolve_attack(
    attacker: dict[str, Any],
    target: dict[str, Any],
    attack: dict[str, Any],
    rng: RandomStream,
    *,
    advantage: bool,
    disadvantage: bool,
    within_5ft: bool | None = None,
    advantage_reasons: list[str] | tuple[str, ...] = (),
    disadvantage_reasons: list[str] | tuple[str, ...] = (),
    sneak_attack: str | None = None,
    enemy_beside_target: bool = False,
    who: Who = name_of,
) -> dict[str, Any]:
    """`within_5ft` None (no grid): an attack that can be made in melee is taken to be made
    from within 5 ft. `advantage_reasons` (Pack Tactics) and `disadvantage_reasons` (range):
    the caller's own, said with the rest. `sneak_attack`: the Sneak Attack dice the attacker
    may add this turn, added on a hit with advantage, or with `enemy_beside_target` (another
    able enemy of the target within 5 ft of it) and no disadvantage."""
    check_can_attack(attacker, target, who=who)
    if within_5ft is None:
        within_5ft = attack_distances(attack)["reach"] is not None
    why_advantage, why_disadvantage = attack_modes(attacker, target, within_5ft=within_5ft, who=who)
    why_advantage = [*advantage_reasons, *why_advantage]
    why_disadvantage = [*disadvantage_reasons, *why_disadvantage]
    advantage = advantage or bool(why_advantage)
    disadvantage = disadvantage or bool(why_disadvantage)
    d20 = roll_d20(rng, advantage, disadvantage)
    bonus = attack_bonus(attacker, attack)
    blessed = blessed_roll(attacker, rng)
    total = d20["natural"] + bonus + (blessed["roll"] if blessed else 0)
    natural_20 = d20["natural"] == 20
    if d20["natural"] == 1:
        hit = False
    else:
        hit = natural_20 or total >= armor_class(target)
    helpless = sorted(set(target["conditions"]) & CRITICAL_WITHIN_5FT)
    critical = hit and (natural_20 or (within_5ft and bool(helpless)))
    result: dict[str, Any] = {
        "attacker_id": attacker["id"],
        "target_id": target["id"],
        "attack": attack["name"],
        "to_hit": {
            **d20,
            "bonus": bonus,
            # Only when blessed: an attack nothing blesses reads as it always has.
            **({"bless": blessed} if blessed else {}),
            "total": total,
            "target_ac": armor_class(target),
            "advantage_reasons": why_advantage,
            "disadvantage_reasons": why_disadvantage,
        },
        "hit": hit,
        "critical": critical,
        "damage": None,
    }
    if critical:
        result["critical_reason"] = (
            "natural 20" if natural_20 else f"{who(target)} is {helpless[0]} within 5 ft"
        )
    sneaking = (
        hit
        and sneak_attack is not None
        and (d20["mode"] == "advantage" or (enemy_beside_target and d20["mode"] != "disadvantage"))
    )
    if sneaking:
        result["sneak_attack"] = sneak_attack
    if hit:
        expression = damage_expression(attacker, attack)
        if sneaking:
            expression = f"{expression}+{sneak_attack}"
        rolled = _damage_roll(expression, rng, critical=critical)
        amount = max(0, rolled["total"])
        effect = apply_damage(
            target, amount, attack["damage_type"], critical=critical, rng=rng, who=who
        )
        result["damage"] = {**rolled, "damage_type": attack["damage_type"], "effect": effect}
        rider = attack_rider(attacker, attack)
        if rider is not None:
            save = _rider(target, rider, rng, who)
            if save is not None:
                result["on_hit"] = save
    return result


# A damage expression of flat numbers only: an unarmed strike's "1+2".
FLAT_DAMAGE = re.compile(r"[+-]?\d+(?:[+-]\d+)*")


def _flat_terms(expression: str) -> list[int] | None:
    """The signed numbers of a flat damage expression ("1+2" is [1, 2]); None for dice."""
    if not FLAT_DAMAGE.fullmatch(expression):
        return None
    return [int(term) for term in re.findall(r"[+-]?\d+", expression)]


def damage_shown(expression: str) -> str:
    """A damage expression as a sheet reads it: a flat amount (an unarmed strike's "1+2") as the
    damage it always does ("3", never below 0, as damage is), dice as written."""
    terms = _flat_terms(expression)
    return expression if terms is None else str(max(0, sum(terms)))


def _damage_roll(expression: str, rng: RandomStream, *, critical: bool) -> dict[str, Any]:
    """The damage rolled; a flat amount (an unarmed strike's) has no dice to roll, nor to
    double on a critical hit, so it is summed as the dice module sums a modifier."""
    terms = _flat_terms(expression)
    if terms is None:
        return dice.roll(expression, rng, critical=critical)
    return dice.roll_terms(
        [dice.DiceTerm(-1 if n < 0 else 1, 0, 0, None, 0, abs(n)) for n in terms], rng
    )


def attack_rider(char: dict[str, Any], attack: dict[str, Any]) -> dict[str, Any] | None:
    """What a hit does besides damage (a wolf's bite: DC 11 STR save or prone), from the
    attack entry or, for a monster stored before its stat block named it, the stat block."""
    if "on_hit" in attack:
        return attack["on_hit"]
    for entry in _stat_block(char).get("attacks", []):
        if entry["name"] == attack["name"]:
            return entry.get("on_hit")
    return None


def _rider(
    target: dict[str, Any], rider: dict[str, Any], rng: RandomStream, who: Who
) -> dict[str, Any] | None:
    """The target's save against a hit's rider; on a failure it gains the condition. None
    when there is nothing to change: the target is dead, already has it, or is immune."""
    condition = rider["condition"]
    if is_dead(target) or condition in target["conditions"]:
        return None
    if condition in condition_immunities(target):
        return None
    save = forced_save(target, rng, ability=rider["save"], dc=rider["dc"], who=who)
    if not save["success"]:
        _add(target, condition)
    return {**save, "condition": condition, "applied": not save["success"]}


def status_word(char: dict[str, Any]) -> str:
    return status_of(char["hp"], is_dead(char))


def status_of(hp: dict[str, int], dead: bool) -> str:
    """The status word for these hit points: what the public sees of a monster's."""
    if dead:
        return "dead"
    if hp["current"] == 0:
        return "down"
    if hp["current"] * 2 <= hp["max"]:
        return "bloodied"
    if hp["current"] < hp["max"]:
        return "wounded"
    return "unhurt"


def _add(char: dict[str, Any], condition: str) -> None:
    if condition not in char["conditions"]:
        char["conditions"].append(condition)
        char["conditions"].sort()


def _remove(char: dict[str, Any], condition: str) -> None:
    if condition in char["conditions"]:
        char["conditions"].remove(condition)


def _kill(char: dict[str, Any]) -> None:
    _remove(char, "stable")
    _add(char, "dead")
    char["death_saves"] = {"successes": 0, "failures": 0}
    char["hp"]["current"] = 0
    # Temporary hit points guard hit points the dead no longer have (granted at 0 HP, they
    # outlast failed death saves).
    char["hp"]["temp"] = 0


add_condition = _add
remove_condition = _remove
