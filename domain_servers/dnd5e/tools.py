"""dnd5e tools: characters, monsters, checks, attacks, HP, conditions, combat."""

from __future__ import annotations

from typing import Any, NamedTuple

from mcp_types import ImageContent

from domain_servers.common.campaign_tools import campaign_tools, check_controller
from domain_servers.common.errors import DomainError, denied, invalid
from domain_servers.common.server import (
    ALL_ROLES,
    GM_ROLES,
    PLAYING_ROLES,
    RANDOM_RECEIPT_SCHEMA,
    Call,
    Outcome,
    ToolSpec,
    View,
    boolean,
    identifier,
    integer,
    nothing_hidden,
    principal,
    public_part,
    string,
    string_list,
)
from domain_servers.common.text import words
from domain_servers.dnd5e import render, rules

SYSTEM_ID = "dnd5e"
PHASES = ["lobby", "play"]  # combat is entered only through combat_start
IN_PLAY = frozenset({"play", "combat"})
SETUP = frozenset({"lobby", "play"})
COMBAT = frozenset({"combat"})
MAX_COMBATANTS = 20

ABILITY = {"type": "string", "enum": rules.ABILITIES, "maxLength": 3, "description": "Ability."}
ABILITY_SCORES = {
    "type": "object",
    "description": "Ability scores 1..30 keyed str, dex, con, int, wis, cha.",
    "properties": {a: integer(f"{a} score", 1, 30) for a in rules.ABILITIES},
    "required": rules.ABILITIES,
    "additionalProperties": False,
}
ATTACK_ENTRY = {
    "type": "object",
    "description": "A weapon or spell attack.",
    "properties": {
        "name": string("Attack name.", 60, minLength=1),
        "ability": {
            **ABILITY,
            "description": "Ability for the attack and damage rolls (a finesse weapon, or a "
            "melee attack given dex, uses the higher of STR and DEX).",
        },
        "proficient": boolean("Add the proficiency bonus."),
        "damage": string("Damage dice without the ability modifier, e.g. 1d8.", 40),
        "damage_type": {
            "type": "string",
            "enum": rules.DAMAGE_TYPES,
            "maxLength": 16,
            "description": "Damage type.",
        },
        "reach": integer(
            "Melee reach in feet: 5 by default, 10 for reach weapons. An attack with a range "
            "and no reach is ranged only (a bow); give both for a thrown weapon (a dagger).",
            5,
            30,
        ),
        "range": integer(
            "Normal range in feet of a ranged or thrown attack (no range: melee only).", 5, 1000
        ),
        "long_range": integer(
            "Long range in feet (needs range; beyond the normal range: disadvantage).", 5, 2000
        ),
    },
    "required": ["name", "ability", "damage", "damage_type"],
    "additionalProperties": False,
}
DAMAGE_TYPE_LIST = {
    "type": "array",
    "maxItems": 13,
    "uniqueItems": True,
    "items": {"type": "string", "enum": rules.DAMAGE_TYPES, "maxLength": 16},
    "description": "Damage types.",
}


def initial_state() -> dict[str, Any]:
    return {"characters": {}, "combat": None}


def summary(call: Call) -> dict[str, Any]:
    chars = call.state["characters"].values()
    pcs = sorted((c for c in chars if c["kind"] == "pc"), key=lambda c: c["id"])
    return {
        "character_ids": [c["id"] for c in pcs],
        # Names are table talk: what a GM picks from when binding a character to a player.
        "characters": [{"id": c["id"], "name": c["name"]} for c in pcs],
        "monster_ids": sorted(c["id"] for c in chars if c["kind"] == "monster"),
        "combat_active": bool(call.state.get("combat")),
    }


# -- helpers -----------------------------------------------------------------------------------


def _char(call: Call, key: str) -> dict[str, Any]:
    return _char_by_id(call, call.args[key], named_by=key)


def _require_control(call: Call, char: dict[str, Any]) -> None:
    if call.is_gm:
        return
    who = _who(call, char["id"])
    if char.get("controller") != call.requester:
        raise denied(f"the requester does not control {who}")
    if call.character == "":
        # Django names no character for a player it has none bound to.
        raise denied(f"the requester has no character to act as, so not {who}")
    if call.character is not None and call.character != char["id"]:
        raise denied(f"the delegation acts for {_who(call, call.character)}, not {who}")


def character_view(call: Call, char: dict[str, Any]) -> dict[str, Any]:
    """Players never see monster HP, stat blocks or any GM notes."""
    if char["kind"] == "pc":
        # A character stored before slots were kept has its table's: shown, not stored, since
        # a read writes nothing (spending or resting stores them).
        char = {
            **char,
            "spell_slots": rules.slots_shown(char),
            "hit_dice": rules.hit_dice_shown(char),
            "sheet": _sheet(char),
        }
    if char["kind"] == "monster":
        # A monster stored before types were kept shows its stat block's.
        char = {**char, "creature_type": rules.creature_type(char)}
    # The AC an attack rolls against: Shield of Faith's +2 in it, the effect named in effects.
    char = {**char, "ac": rules.armor_class(char)}
    if "concentration" in char:
        held = char["concentration"]
        char["concentration"] = {
            "spell": held["spell"],
            "name": rules.SPELLS[held["spell"]]["name"],
            **_held_targets(call, held),
            **_rounds_left(call, char),
        }
    if "effects" in char:
        # In combat each effect says how many rounds its spell has left (its caster's count).
        chars = call.state["characters"]
        char["effects"] = [
            {**effect, **_rounds_left(call, chars.get(effect["from"]))}
            for effect in char["effects"]
        ]
    if call.is_gm:
        return dict(char)
    if char["kind"] == "monster":
        return {
            "id": char["id"],
            "name": char["name"],
            "kind": "monster",
            "monster_key": char.get("monster_key"),
            "conditions": list(char["conditions"]),
            "status": rules.status_word(char),
            # A spell on it is seen, as its conditions are; its AC stays the GM's.
            **({"effects": char["effects"]} if "effects" in char else {}),
        }
    view = {k: v for k, v in char.items() if k != "gm_notes"}
    view["status"] = rules.status_word(char)
    return view


def _sheet(char: dict[str, Any]) -> dict[str, Any]:
    """What a player reads to choose what to do, worked out here by the functions the attack
    tool rolls with, so the card never disagrees with a roll (nor the browser keeps rules)."""
    return {
        "ability_modifiers": {a: rules.modifier(char["abilities"][a]) for a in rules.ABILITIES},
        "attacks": [
            {
                "name": attack["name"],
                "to_hit": rules.attack_bonus(char, attack),
                "damage": rules.damage_shown(rules.damage_expression(char, attack)),
                "damage_type": attack["damage_type"],
            }
            # The Unarmed Strike the attack tool also takes, last.
            for attack in rules.attacks_of(char)
        ],
        "spells": _castable_spells(char),
        # Only while it concentrates: a sheet reads as it always has otherwise.
        **(
            {"concentration": rules.SPELLS[char["concentration"]["spell"]]["name"]}
            if "concentration" in char
            else {}
        ),
    }


def _castable_spells(char: dict[str, Any]) -> list[dict[str, Any]]:
    """The spells of the character's class that spell_cast accepts, lowest level first; none
    for a class without spell slots."""
    known = rules.known_spells(char).items()
    return [
        {
            "key": key,
            "name": spell["name"],
            "level": spell["level"],
            "casting": spell["casting"],
            "range": spell["range"],
            # SPELLS gives a touch spell's range as one square.
            "touch": spell["range"] == rules.FEET_PER_SQUARE,
            # Casting a concentration spell ends the caster's last one.
            "concentration": bool(spell.get("concentration")),
            # Creatures at the spell's own level (spell_cast's target_ids): Bless's 3.
            "targets": rules.max_targets(spell, spell["level"]),
        }
        for key, spell in sorted(known, key=lambda item: (item[1]["level"], item[1]["name"]))
    ]


def _public_effect(call: Call, target: dict[str, Any], effect: dict[str, Any]) -> dict[str, Any]:
    if call.is_gm or target["kind"] != "monster":
        return effect
    # The status as the effect left it, not as the monster is now: a replay answers the same.
    # A player's own answer is narrowed already (no hit points, its status kept), and a
    # public view narrows that answer again.
    status = (
        rules.status_of(effect["hp_after"], effect["dead"])
        if "hp_after" in effect
        else effect["status"]
    )
    shown = {
        "target_id": target["id"],
        "dropped_to_zero": effect["dropped_to_zero"],
        "dead": effect["dead"],
        "status": status,
    }
    if "undead_fortitude" in effect:
        # The table sees it refuse to fall, not the save's modifier nor the damage in its DC.
        shown["undead_fortitude"] = {"success": effect["undead_fortitude"]["success"]}
    if "concentration" in effect:
        shown["concentration"] = _shown_concentration(effect["concentration"])
    return shown


def _shown_concentration(held: dict[str, Any]) -> dict[str, Any]:
    """A monster's concentration saves as any of its saves show: the total against the DC.
    The DC stays: the damage it comes from is shown as a status, not hit points, and a DC 10
    or half the damage says no more than the status does."""
    shown = dict(held)
    if "save" in held:
        shown["save"] = _shown_check(held["save"])
    if "saves" in held:
        shown["saves"] = [_shown_check(save) for save in held["saves"]]
    return shown


# What of a monster's attack would give away its attack bonus and damage dice: the natural
# roll (the total less it is the bonus) and the damage's dice and expression.
# A blessed monster's Bless die goes too: its total stays the one number shown.
_MONSTER_TO_HIT_HIDDEN = ("bonus", "natural", "rolls", "bless")
_MONSTER_DAMAGE_HIDDEN = ("expression", "rolls", "detail")
# What of a monster's check or save would give away its ability modifier and proficiency.
_MONSTER_SAVE_HIDDEN = ("ability_modifier", "proficiency", "natural", "rolls", "bless")


def _attack_view(
    call: Call, attacker: dict[str, Any], target: dict[str, Any], result: dict[str, Any]
) -> dict[str, Any]:
    """An attack's result as the call's viewer sees it: a monster's AC and hit points, and
    its attack bonus and damage dice, are part of its hidden stat block. What shows is the
    total against the AC, hit or miss, and the damage done."""
    if call.is_gm:
        return result
    to_hit, damage = dict(result["to_hit"]), result["damage"]
    if damage is not None:
        damage = dict(damage)
    shown = {**result}
    gm_only = rules.HIDDEN_HOSTILE_WITHIN_5FT
    if gm_only in to_hit["disadvantage_reasons"]:
        # The disadvantage stays, as an unseen foe's would: why would say a foe is beside the
        # attacker.
        shown["range"] = {
            **result["range"],
            "disadvantage": [r for r in result["range"]["disadvantage"] if r != gm_only],
        }
        to_hit["disadvantage_reasons"] = [r for r in to_hit["disadvantage_reasons"] if r != gm_only]
    if "range" in result and result.get("target_hidden"):
        # How far it was would say where the hidden monster is, and so would its being beyond
        # normal range: unseen, it is attacked with disadvantage all the same.
        shown["range"] = {
            k: [r for r in v if r != rules.LONG_RANGE] if k == "disadvantage" else v
            for k, v in shown["range"].items()
            if k != "distance_ft"
        }
        to_hit["disadvantage_reasons"] = [
            r for r in to_hit["disadvantage_reasons"] if r != rules.LONG_RANGE
        ]
    if target["kind"] == "monster":
        to_hit.pop("target_ac", None)
        if damage is not None:
            damage["effect"] = _public_effect(call, target, damage["effect"])
        if "on_hit" in result:
            # The monster's save against the hit's rider: its total against the DC, as any of
            # its saves shows.
            shown["on_hit"] = {
                k: v for k, v in result["on_hit"].items() if k not in _MONSTER_SAVE_HIDDEN
            }
    if attacker["kind"] == "monster":
        for key in _MONSTER_TO_HIT_HIDDEN:
            to_hit.pop(key, None)
        if damage is not None:
            for key in _MONSTER_DAMAGE_HIDDEN:
                damage.pop(key, None)
    return {**shown, "to_hit": to_hit, "damage": damage}


def _heal_view(call: Call, target: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """A heal's result as the call's viewer sees it: a monster's hit points only as its
    status."""
    if call.is_gm or target["kind"] != "monster":
        return result
    shown = {k: v for k, v in result.items() if k not in ("healed", "hp_before", "hp_after")}
    # A monster's heal stores its status as the heal left it (so a replay answers the same);
    # a result stored without one shows the monster as it is now.
    shown.setdefault("status", rules.status_word(target))
    return shown


# A write's result as the public sees it (ToolSpec.public): the views above for an observer.
# The target is looked up as the campaign is at the answer: its kind never changes, and a
# replay shows its status as it is by then.


def _target(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    return _char_by_id(call, result["target_id"])


def _attack_public(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    return _attack_view(
        call, _char_by_id(call, result["attacker_id"]), _target(call, result), result
    )


def _damage_public(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    return _public_effect(call, _target(call, result), result)


def _heal_public(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    return _heal_view(call, _target(call, result), result)


def _spell_view(
    call: Call, caster: dict[str, Any], target: dict[str, Any], result: dict[str, Any]
) -> dict[str, Any]:
    """A spell's result as the call's viewer sees it: a healing spell's as a heal's, an attack
    spell's as an attack's, a damage spell's damage to a monster as an attack's (its status,
    not its hit points), a monster's save against a spell as any of its saves, a ward on a
    monster without its AC (of its hidden stat block)."""
    if "ac_bonus" in result:
        if call.is_gm or target["kind"] != "monster":
            return result
        return {k: v for k, v in result.items() if k not in ("ac_before", "ac_after")}
    if "concentration_ended" in result:  # ended at will: nothing cast, nothing hidden
        return result
    if "dice" in result:  # Bless: whom it blesses, all seen, and nothing of a stat block
        return result
    if "to_hit" in result:
        return _attack_view(call, caster, target, result)
    if "save" in result:
        shown = dict(result)
        if not call.is_gm and target["kind"] == "monster":
            shown["save"] = _shown_check(result["save"])
        if "damage" in result:
            shown["damage"] = _public_effect(call, target, result["damage"])
        return shown
    if "damage" not in result:
        return _heal_view(call, target, result)
    return {**result, "damage": _public_effect(call, target, result["damage"])}


def _spell_public(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    return _spell_view(call, _char_by_id(call, result["caster_id"]), _target(call, result), result)


def _check_public(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    """A monster's check or save shows its total against the DC, not its ability modifier or
    proficiency (its hidden stat block), nor the dice that would give them away."""
    if _char_by_id(call, result["character_id"])["kind"] != "monster":
        return result
    return {k: v for k, v in result.items() if k not in _MONSTER_SAVE_HIDDEN}


COMBAT_STATUS_SCHEMA = {
    "type": "object",
    "description": (
        "round, turn_index, current (the combatant whose turn it is), order (id, initiative, "
        "how it was rolled: natural (the d20 kept), modifier (DEX) and mode (normal, or "
        "disadvantage: two d20s, the lower kept), a monster's natural and modifier for the GM "
        "alone (with the total they give away its stat block), none of the three in a combat "
        "started before they were kept, "
        "character (as character_get shows it: ac with spell effects, effects, concentration), "
        "budget, position [x, y] (for a hidden monster, its position and its "
        "budget's movement are left out but for the GM), "
        "hidden when hidden, helped_by when it holds Help actions: helper_id, helper_name, "
        "target_id and target_name, null for a Help with an ability check), grid, and for "
        "the GM alone opportunity when the last move left opportunity attacks open "
        "(attacker_id, attacker_name, target_id, target_name, at: the square it left)."
    ),
    "required": ["current", "grid", "order", "round", "turn_index"],
    "properties": {
        "order": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "initiative"],
                "properties": {
                    "id": {"type": "string"},
                    # natural + modifier, when the roll is said.
                    "initiative": {"type": "integer"},
                    "natural": {"type": "integer", "minimum": 1, "maximum": 20},
                    "modifier": {"type": "integer"},
                    "mode": {"type": "string", "enum": ["normal", "disadvantage"]},
                },
            },
        },
        "grid": {
            "type": "object",
            "description": "The grid's size in squares; x runs 0..width-1 and y 0..height-1.",
            "required": ["width", "height"],
            "properties": {"width": {"type": "integer"}, "height": {"type": "integer"}},
        },
    },
}


# What of a monster's initiative roll would give away its DEX modifier (its stat block's): with
# the total, either of them. Whether two dice were rolled stays, as a check's mode does.
_MONSTER_INITIATIVE_HIDDEN = ("natural", "modifier")


def _combat_public(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    combat = result["combat"]
    order = [
        {
            **{
                k: v
                for k, v in e.items()
                if e["character"]["kind"] != "monster" or k not in _MONSTER_INITIATIVE_HIDDEN
            },
            "character": character_view(call, e["character"]),
        }
        for e in combat["order"]
    ]
    return {**result, "combat": {**combat, "order": order}}


def _combat(call: Call) -> dict[str, Any]:
    combat = call.state.get("combat")
    if not combat:
        raise invalid("no combat is running")
    return combat


def _combat_scopes(call: Call, *char_ids: str) -> list[str]:
    """`combat` when a running combat includes one of these characters: combat_status and
    combat_render show every combatant's HP state, conditions and death."""
    combat = call.state.get("combat")
    if combat and any(char_id in combat["budgets"] for char_id in char_ids):
        return ["combat"]
    return []


def _current_id(combat: dict[str, Any]) -> str:
    return combat["order"][combat["turn_index"]]["id"]


def _who(call: Call, char_id: str) -> str:
    """A character as messages name it: its name, with its id when another shares the name
    (two goblins). Players read these refusals."""
    chars = call.state["characters"]
    name = (chars.get(char_id) or {}).get("name")
    if not name:
        return char_id
    same = sum(1 for c in chars.values() if c.get("name") == name)
    return name if same == 1 else f"{name} ({char_id})"


def _oneself(char: dict[str, Any]) -> str:
    """The word a refusal uses for a creature aimed at itself: a player character is a person."""
    return "themselves" if char["kind"] == "pc" else "itself"


def _who_char(call: Call) -> rules.Who:
    """`_who` for the rules functions, which see character dicts."""
    return lambda char: _who(call, char["id"])


def _lapse(call: Call) -> list[str]:
    """End the spell effects whose casters no longer concentrate on them (a failed save, 0 HP,
    another concentration spell): the scopes of the creatures that lost one."""
    return [f"character:{char_id}" for char_id in rules.lapse_effects(call.state["characters"])]


# How long each caster's concentration spell has left, by caster id (state["durations"]):
# {"spell", "ends": [round, turn_index]} in combat, the turn whose start ends it;
# {"spell", "rounds_left"} out of combat, where no rounds pass (combat_start counts them on).
# An entry whose spell the caster no longer holds (a failed save, a rest) is stale: ignored.


def _duration(call: Call, char: dict[str, Any] | None) -> dict[str, Any] | None:
    """The duration entry of the spell `char` concentrates on, or None (none held, or a
    campaign stored before durations were kept: it is timed in full from the next
    combat_start)."""
    entry = (call.state.get("durations") or {}).get((char or {}).get("id", ""))
    held = (char or {}).get("concentration")
    return entry if entry and held and held["spell"] == entry["spell"] else None


def _rounds_left(call: Call, caster: dict[str, Any] | None) -> dict[str, int]:
    """{"rounds_left": n} for the spell `caster` concentrates on while a combat counts its
    rounds; nothing otherwise (out of combat no rounds pass)."""
    combat = call.state.get("combat")
    entry = _duration(call, caster)
    if not combat or entry is None or "ends" not in entry:
        return {}
    return {"rounds_left": rules.rounds_left(entry["ends"], combat["round"], combat["turn_index"])}


def _start_duration(call: Call, caster: dict[str, Any], key: str, spell: dict[str, Any]) -> None:
    """Time a concentration spell just cast. SRD 5.1 "Duration": 1 minute is 10 rounds, so
    one cast on a turn ends as that turn comes round again 10 rounds later (the caster's own,
    since it casts on its turn), once the turns _advance_turn passes have filled the minute.
    Cast out of combat, it counts from the next fight's first round."""
    rounds = rules.duration_rounds(spell)
    if rounds is None:
        return
    combat = call.state.get("combat")
    call.state.setdefault("durations", {})[caster["id"]] = (
        {"spell": key, "ends": [combat["round"] + rounds, combat["turn_index"]]}
        if combat
        else {"spell": key, "rounds_left": rounds}
    )


def _expire_spells(call: Call) -> tuple[list[dict[str, Any]], list[str]]:
    """End the concentration spells whose duration is over at the turn now starting, as any
    lost concentration ends (effects gone from every creature): what ended, said as
    spell_cast's concentration_ended with its caster and duration, and the changed scopes."""
    combat = _combat(call)
    chars = call.state["characters"]
    durations = call.state.get("durations") or {}
    ended = []
    for caster_id in sorted(durations):
        caster = chars.get(caster_id)
        entry = _duration(call, caster)
        if entry is None:
            del durations[caster_id]  # stale: its spell ended some other way
            continue
        if "ends" not in entry or not rules.duration_over(
            entry["ends"], combat["round"], combat["turn_index"]
        ):
            continue
        del durations[caster_id]
        held = rules.end_concentration(caster)
        spell = rules.SPELLS[held["spell"]]
        ended.append(
            {
                "caster_id": caster_id,
                "caster_name": _who(call, caster_id),
                "spell": held["spell"],
                "spell_name": spell["name"],
                **_held_targets(call, held),
                "duration": spell["duration"],
            }
        )
    if not ended:
        return [], []
    scopes = {f"character:{e['caster_id']}" for e in ended} | set(_lapse(call))
    return ended, sorted(scopes)


def _spend(call: Call, char_id: str, resource: str, amount: int = 1) -> None:
    combat = call.state.get("combat")
    if not combat:
        return
    budgets = combat["budgets"]
    if char_id not in budgets:
        raise invalid(f"{_who(call, char_id)} is not in this combat")
    if resource != "reaction" and _current_id(combat) != char_id:
        current = _current_id(combat)
        raise invalid(f"it is {_who(call, current)}'s turn, not {_who(call, char_id)}'s")
    left = budgets[char_id][resource]
    if left < amount:
        if resource == "movement" and left > 0:
            # Said as feet left, not "none": a shorter move still fits.
            raise invalid(f"{_who(call, char_id)} has only {left} ft of movement left this turn")
        raise invalid(f"{_who(call, char_id)} has no {resource.replace('_', ' ')} left this turn")
    budgets[char_id][resource] -= amount


# -- handlers -------------------------------------------------------------------------------------


def character_create(call: Call) -> Outcome:
    args = call.args
    template_key = args.get("template")
    if template_key is None and "abilities" not in args:
        raise invalid("give explicit abilities or a template")
    template = rules.TEMPLATES.get(template_key or "", {})
    abilities = args.get("abilities") or template["abilities"]
    level = args.get("level", 1)
    hit_die = template.get("hit_die", 8)
    max_hp = args.get("max_hp") or rules.hit_points(hit_die, abilities["con"], level)
    # A player always controls what they create; only a GM may assign another controller.
    controller = (args.get("controller") or call.requester) if call.is_gm else call.requester
    check_controller(call, controller)
    name = words(args["name"], "name")
    given = [
        {**attack, "name": words(attack["name"], f"attacks[{index}].name")}
        for index, attack in enumerate(args.get("attacks") or [])
    ]
    skills = sorted(args.get("skill_proficiencies", template.get("skill_proficiencies", [])))
    expertise = _expertise(template_key, level, skills, args.get("skill_expertise"), name)
    char_id = call.new_id("pc")
    char = {
        "id": char_id,
        "name": name,
        "kind": "pc",
        "template": template_key,
        "controller": controller,
        "level": level,
        "abilities": dict(abilities),
        "proficiency_bonus": rules.proficiency_bonus(level),
        "ac": args.get("ac", template.get("ac", 10 + rules.modifier(abilities["dex"]))),
        "hp": {"current": max_hp, "max": max_hp, "temp": 0},
        "speed": args.get("speed", template.get("speed", 30)),
        "save_proficiencies": sorted(
            args.get("save_proficiencies", template.get("save_proficiencies", []))
        ),
        "skill_proficiencies": skills,
        "skill_expertise": expertise,
        "resistances": sorted(args.get("resistances", [])),
        "vulnerabilities": sorted(args.get("vulnerabilities", [])),
        "immunities": sorted(args.get("immunities", [])),
        "conditions": [],
        "death_saves": {"successes": 0, "failures": 0},
        "spell_slots": rules.spell_slots(template_key, level),
        "hit_dice": rules.hit_dice(template_key, level),
        "attacks": given
        or template.get("attacks")
        or [
            {
                "name": "Club",
                "ability": "str",
                "proficient": True,
                "damage": "1d4",
                "damage_type": "bludgeoning",
            }
        ],
        # Trimmed like the name: a model's notes end in a line break nobody wrote.
        "gm_notes": args.get("gm_notes", "").strip() if call.is_gm else "",
    }
    for attack in char["attacks"]:
        rules.dice.parse(attack["damage"])
        if "long_range" in attack and attack["long_range"] < attack.get("range", 10**9):
            raise invalid(
                f"attack {attack['name']}: long_range needs a range and must not be shorter"
            )
    call.state["characters"][char_id] = char
    return Outcome(
        {"character": character_view(call, char)},
        scopes=[f"character:{char_id}"],
        entity_ids=[char_id],
    )


def _expertise(
    template: str | None, level: int, skills: list[str], chosen: list[str] | None, name: str
) -> list[str]:
    """Skills whose proficiency bonus doubles: a rogue's Expertise, chosen among its proficient
    skills (the template's picks when none are chosen); a character of no template may name
    its own (a bard's), another template has none."""
    if chosen is None:
        if template != "rogue":
            return []
        return rules.default_rogue_expertise(level, skills)
    if template not in (None, "rogue"):
        raise invalid(f"only a rogue has Expertise here, not a {template}")
    if missing := sorted(set(chosen) - set(skills)):
        raise invalid(
            f"Expertise needs proficiency: {name} is not proficient in {', '.join(missing)}"
        )
    allowed = rules.rogue_expertise_count(level)
    if template == "rogue" and len(chosen) != allowed:
        raise invalid(f"a level {level} rogue has Expertise in {allowed} skills, not {len(chosen)}")
    return sorted(chosen)


def character_get(call: Call) -> View:
    return View({"character": character_view(call, _char(call, "character_id"))})


def _unused_name(call: Call, base: str, *, fallen_free: bool = False) -> str:
    """`base`, or "Goblin 2", "Goblin 3"... once it is taken: a second goblin gets a name of its
    own, which every message, panel and "attack goblin 2" then uses. A name taken in another
    case is taken: a player typing "goblin" could not tell "Goblin" from it. With
    `fallen_free`, a dead monster's name is free again (a new fight's goblin named "Goblin")."""
    taken = {
        str(c.get("name")).casefold()
        for c in call.state["characters"].values()
        if not (fallen_free and c.get("kind") == "monster" and rules.is_dead(c))
    }
    if base.casefold() not in taken:
        return base
    n = 2
    while f"{base} {n}".casefold() in taken:
        n += 1
    return f"{base} {n}"


def monster_spawn(call: Call) -> Outcome:
    key = call.args["monster_key"]
    block = rules.monsters().get(key)
    if block is None:
        raise invalid(f"unknown monster_key {key!r}; known: {', '.join(sorted(rules.monsters()))}")
    given = call.args.get("name")
    # A given name is numbered like the stat block's: the model naming two wolves "Fang"
    # wants two wolves, which a refusal would only make it retry for. Only the living and the
    # characters keep it from being given; a name the caller picked past them is kept.
    if given is None:
        name = _unused_name(call, block["name"])
    else:
        name = _unused_name(call, words(given, "name"), fallen_free=True)
    char_id = call.new_id("mon")
    char = {
        "id": char_id,
        "name": name,
        "kind": "monster",
        "monster_key": key,
        "creature_type": block.get("type"),
        "controller": None,
        "level": 1,
        "abilities": dict(block["abilities"]),
        "proficiency_bonus": 2,
        "ac": block["ac"],
        "hp": {"current": block["hp"], "max": block["hp"], "temp": 0},
        "speed": block["speed"],
        # The stat block's proficient saves and skills (a zombie's Wis +0, a wolf's Perception).
        "save_proficiencies": sorted(block.get("save_proficiencies", [])),
        "skill_proficiencies": sorted(block.get("skill_proficiencies", [])),
        "skill_expertise": sorted(block.get("skill_expertise", [])),
        "resistances": list(block["resistances"]),
        "vulnerabilities": list(block["vulnerabilities"]),
        "immunities": list(block["immunities"]),
        "condition_immunities": list(block.get("condition_immunities", [])),
        "traits": list(block.get("traits", [])),
        "conditions": [],
        "death_saves": {"successes": 0, "failures": 0},
        "attacks": [dict(a) for a in block["attacks"]],
        "gm_notes": call.args.get("gm_notes", "").strip(),
    }
    call.state["characters"][char_id] = char
    return Outcome(
        {"character": character_view(call, char)},
        scopes=[f"character:{char_id}"],
        entity_ids=[char_id],
    )


def _check(call: Call, save: bool) -> Outcome:
    char = _char(call, "character_id")
    _require_control(call, char)
    if "dead" in char["conditions"]:
        raise invalid(
            f"{_who(call, char['id'])} is dead and makes no {'saves' if save else 'checks'}"
        )
    if not save and "unconscious" in char["conditions"]:
        # Unaware of its surroundings, it attempts nothing; its saves are still made (STR and
        # DEX ones fail, rules.check says why).
        raise invalid(f"{_who(call, char['id'])} is unconscious and makes no checks")
    skill = call.args.get("skill")
    ability = call.args.get("ability")
    expertise = False
    if save:
        proficient = ability in char["save_proficiencies"]
    elif skill is not None:
        skill_ability = rules.SKILLS[skill]
        if ability is not None and ability != skill_ability:
            raise invalid(f"skill {skill} uses {skill_ability}, not {ability}")
        ability = skill_ability
        proficient = skill in char["skill_proficiencies"]
        expertise = skill in rules.skill_expertise(char)
    else:
        if ability is None:
            raise invalid("give an ability or a skill")
        proficient = False
    helped = [] if save else _helped(call, char, None)
    result = rules.check(
        char,
        call.rng,
        ability=ability,
        # A check may have none (saves require one): the roll and its total, no success.
        dc=call.args.get("dc"),
        proficient=proficient,
        advantage=call.args.get("advantage", False),
        disadvantage=call.args.get("disadvantage", False),
        bonus=call.args.get("bonus", 0),
        save=save,
        expertise=expertise,
        advantage_reasons=(_dodging(call, char) if save and ability == "dex" else []) + helped,
        who=_who_char(call),
    )
    result.update(
        {
            "character_id": char["id"],
            "character_name": _who(call, char["id"]),
            # Whoever shows the roll knows from this alone whether its natural die may go to
            # the table (a monster's, with the total, gives away its stat block's modifier).
            "character_kind": char["kind"],
            "kind": "save" if save else "check",
            "skill": skill,
        }
    )
    # A Help it used up is gone from the combat.
    scopes = [f"character:{char['id']}", *(["combat"] if helped else [])]
    return Outcome(result, scopes=scopes, entity_ids=[char["id"]])


def ability_check(call: Call) -> Outcome:
    return _check(call, save=False)


def saving_throw(call: Call) -> Outcome:
    return _check(call, save=True)


def _hostile(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Player characters and monsters are on opposite sides."""
    return (a["kind"] == "monster") != (b["kind"] == "monster")


def _reach(
    call: Call,
    attacker: dict[str, Any],
    target: dict[str, Any],
    chosen: dict[str, Any],
    target_at: list[int] | None = None,
) -> dict[str, Any] | None:
    """Distance rules on the combat grid; None when positions are unknown (no grid).
    `target_at`: where the target is taken to stand (an opportunity attack's square)."""
    combat = call.state.get("combat")
    positions = (combat or {}).get("positions") or {}
    here, there = positions.get(attacker["id"]), target_at or positions.get(target["id"])
    if here is None or there is None:
        return None
    chars = call.state["characters"]
    # A hostile creature within 5 ft that can see the attacker and isn't incapacitated puts a
    # ranged attack at disadvantage. The rules know no line of sight: only a blinded foe, or an
    # invisible attacker, goes unseen.
    # A hidden monster sees the attacker as well as any: its disadvantage is imposed, and its
    # reason told to the GM alone (_attack_view), as where it stands is.
    unseen = "invisible" in attacker["conditions"] or _hidden(call, attacker)
    threats = (
        []
        if unseen
        else [
            chars[other]
            for other, pos in positions.items()
            if other != attacker["id"]
            and other in chars
            and _hostile(attacker, chars[other])
            and not set(chars[other]["conditions"]) & (rules.CANNOT_ACT | {"blinded"})
            and rules.grid_distance(here, pos) <= rules.FEET_PER_SQUARE
        ]
    )
    hidden = all(t["kind"] == "monster" and _hidden(call, t) for t in threats)
    distance = rules.grid_distance(here, there)
    made = rules.attack_at_distance(chosen, distance, bool(threats), hidden=hidden)
    if made is None:
        raise invalid(
            f"{_away(call, target, distance, _who(call, attacker['id']))}; "
            f"{rules.distance_text(chosen)}. Move closer first."
        )
    return made


def _pack_tactics(call: Call, attacker: dict[str, Any], target: dict[str, Any]) -> list[str]:
    """Pack Tactics: advantage when an ally of the attacker that isn't incapacitated is within
    5 ft of the target; known only on the combat grid."""
    if "pack_tactics" not in rules.traits(attacker):
        return []
    positions = (call.state.get("combat") or {}).get("positions") or {}
    there = positions.get(target["id"])
    if there is None:
        return []
    chars = call.state["characters"]
    for other, pos in sorted(positions.items()):
        ally = chars.get(other)
        if (
            ally is not None
            and other not in (attacker["id"], target["id"])
            and not _hostile(attacker, ally)
            and not set(ally["conditions"]) & rules.CANNOT_ACT
            and rules.grid_distance(pos, there) <= rules.FEET_PER_SQUARE
        ):
            return [
                f"Pack Tactics: {_who(call, other)} is within 5 ft of {_who(call, target['id'])}"
            ]
    return []


def _sneak_attack(call: Call, attacker: dict[str, Any], chosen: dict[str, Any]) -> str | None:
    """The Sneak Attack dice the attacker may still add this turn (once per turn)."""
    combat = call.state.get("combat")
    if combat:
        used = (combat.get("sneak_attacks") or {}).get(attacker["id"])
        if used == [combat["round"], combat["turn_index"]]:
            return None
    return rules.sneak_attack_dice(attacker, chosen)


def _enemy_beside(call: Call, attacker: dict[str, Any], target: dict[str, Any]) -> bool:
    """Another enemy of the target, not incapacitated, within 5 ft of it; known only on the
    combat grid."""
    positions = (call.state.get("combat") or {}).get("positions") or {}
    there = positions.get(target["id"])
    if there is None:
        return False
    chars = call.state["characters"]
    return any(
        other not in (attacker["id"], target["id"])
        and other in chars
        and _hostile(chars[other], target)
        and not set(chars[other]["conditions"]) & rules.CANNOT_ACT
        and rules.grid_distance(pos, there) <= rules.FEET_PER_SQUARE
        for other, pos in positions.items()
    )


def attack(call: Call) -> Outcome:
    attacker = _char(call, "attacker_id")
    target = _char(call, "target_id")
    _require_control(call, attacker)
    if attacker["id"] == target["id"]:
        raise invalid(f"{_who(call, attacker['id'])} cannot attack {_oneself(attacker)}")
    name = call.args.get("attack_name")
    # An opportunity attack the last move provoked strikes as the target leaves the reach:
    # from the square it left from, not the one it moved on to.
    window = None
    if call.args.get("as_reaction"):
        opened = (call.state.get("combat") or {}).get("opportunity") or {}
        window = opened.get(attacker["id"])
        if window is not None and window["target"] != target["id"]:
            window = None
    if name is None and window is not None:
        # SRD 5.1: it is one melee attack, with the first that reaches (a player character's
        # Unarmed Strike when none listed does).
        chosen = next(iter(_reaching(call, attacker, window["at"])), attacker["attacks"][0])
    elif name is None:
        chosen = attacker["attacks"][0]
    else:
        # Attack names are stored trimmed, so the one asked for is matched trimmed too.
        name = words(name, "attack_name")
        choices = rules.attacks_of(attacker)
        matches = [a for a in choices if a["name"].lower() == name.lower()]
        if not matches:
            known = ", ".join(a["name"] for a in choices)
            raise invalid(
                f"{_who(call, attacker['id'])} has no attack named {name!r}; attacks: {known}"
            )
        chosen = matches[0]
    if call.args.get("as_reaction"):
        _spend(call, attacker["id"], "reaction")
    else:
        _spend_attack(call, attacker)
    # A dead target or an attacker who cannot act is refused before distance matters.
    rules.check_can_attack(attacker, target, who=_who_char(call))
    made = _reach(call, attacker, target, chosen, window["at"] if window else None)
    if window is not None and made is not None and made["kind"] != "melee":
        # SRD 5.1: the reaction a move out of reach provokes is one melee attack.
        reaching = _reaching(call, attacker, window["at"])
        who = _who(call, attacker["id"])
        with_what = f"; {who} makes it with {reaching[0]['name']}" if reaching else ""
        raise invalid(
            f"an opportunity attack is a melee attack: {rules.distance_text(chosen)}{with_what}"
        )
    result = _resolve_attack(
        call,
        attacker,
        target,
        chosen,
        made,
        advantage=call.args.get("advantage", False),
        disadvantage=call.args.get("disadvantage", False),
    )
    if window is not None:
        del call.state["combat"]["opportunity"][attacker["id"]]
        result["opportunity_attack"] = True
    # Names as messages give them, so a result read later (a replayed dice line) needs no roster.
    result["attacker_name"] = _who(call, attacker["id"])
    result["attacker_kind"] = attacker["kind"]
    result["target_name"] = _who(call, target["id"])
    lapsed = _lapse(call)
    return Outcome(
        _attack_view(call, attacker, target, result),
        scopes=[f"character:{target['id']}", f"character:{attacker['id']}"]
        + _combat_scopes(call, attacker["id"], target["id"])
        + [
            s
            for s in lapsed
            if s not in (f"character:{target['id']}", f"character:{attacker['id']}")
        ],
        entity_ids=[attacker["id"], target["id"]],
    )


def _reaching(call: Call, attacker: dict[str, Any], at: list[int]) -> list[dict[str, Any]]:
    """The attacker's attacks that reach a creature at square `at` in melee, listed first (a
    player character's Unarmed Strike last)."""
    here = call.state["combat"]["positions"][attacker["id"]]
    distance = rules.grid_distance(here, at)
    return [
        a
        for a in rules.attacks_of(attacker)
        if (rules.attack_distances(a)["reach"] or 0) >= distance
    ]


def _resolve_attack(
    call: Call,
    attacker: dict[str, Any],
    target: dict[str, Any],
    chosen: dict[str, Any],
    made: dict[str, Any] | None,
    *,
    advantage: bool = False,
    disadvantage: bool = False,
) -> dict[str, Any]:
    """One attack roll and its damage (a weapon's, or an attack spell's), `made` at the range
    `_reach` found: what the grid, hiding, Help, Dodge and Sneak Attack give it, and what it
    ends (the attacker's hiding; the target's Dodge or hiding once it drops)."""
    result = rules.resolve_attack(
        attacker,
        target,
        chosen,
        call.rng,
        advantage=advantage,
        disadvantage=disadvantage,
        # No grid: None, a melee-capable attack is taken to be made from within 5 ft.
        within_5ft=None if made is None else made["distance_ft"] <= rules.FEET_PER_SQUARE,
        advantage_reasons=[
            *_pack_tactics(call, attacker, target),
            *([f"{_who(call, attacker['id'])} is hidden"] if _hidden(call, attacker) else []),
            *_helped(call, attacker, target),
        ],
        disadvantage_reasons=[
            *(made["disadvantage"] if made else ()),
            *_dodging(call, target, attacker),
            *([f"{_who(call, target['id'])} is hidden"] if _hidden(call, target) else []),
        ],
        sneak_attack=_sneak_attack(call, attacker, chosen),
        enemy_beside_target=_enemy_beside(call, attacker, target),
        who=_who_char(call),
    )
    if "sneak_attack" in result and call.state.get("combat"):
        combat = call.state["combat"]
        # Once per turn, whoever's turn it is (an opportunity attack may use it too).
        combat.setdefault("sneak_attacks", {})[attacker["id"]] = [
            combat["round"],
            combat["turn_index"],
        ]
    if _hidden(call, attacker):
        # Attacking gives away where it is, hit or miss.
        _reveal(call, attacker)
    # Dropped to 0 HP (unconscious, or dead) or held by the hit's rider: as damage_apply and
    # condition_add end them, so does the hit.
    _lose_dodge(call, target)
    _lose_hiding(call, target)
    if made is not None:
        result["range"] = made
        if target["kind"] == "monster" and _hidden(call, target):
            # Kept, so a replay answers the same once it is revealed: how far it was is the GM's.
            result["target_hidden"] = True
    return result


def _spend_attack(call: Call, attacker: dict[str, Any]) -> None:
    """An attack made with the Attack action: the first spends the action, and a fighter's
    Extra Attack makes the rest of that action's attacks without spending another."""
    combat = call.state.get("combat")
    budget = ((combat or {}).get("budgets") or {}).get(attacker["id"])
    if budget is not None and budget.get("attacks_left", 0) > 0:
        _spend(call, attacker["id"], "attacks_left")
        return
    _spend(call, attacker["id"], "action")
    if budget is not None and rules.attacks_per_action(attacker) > 1:
        budget["attacks_left"] = rules.attacks_per_action(attacker) - 1


def damage_apply(call: Call) -> Outcome:
    target = _char(call, "target_id")
    effect = rules.apply_damage(
        target,
        call.args["amount"],
        call.args.get("damage_type"),
        call.args.get("critical", False),
        rng=call.rng,
        who=_who_char(call),
    )
    _lose_dodge(call, target)  # dropped to 0 HP: unconscious
    _lose_hiding(call, target)
    lapsed = _lapse(call)  # its concentration's effect, on another creature
    return Outcome(
        effect,
        scopes=sorted({f"character:{target['id']}", *_combat_scopes(call, target["id"]), *lapsed}),
        entity_ids=[target["id"]],
    )


POTION_OF_HEALING = "2d4+2"


def _healer(call: Call) -> dict[str, Any] | None:
    """Who gives the potion: `healer_id`; for a player without one, the delegation's character
    or else the one character they control. A GM naming no healer heals by fiat."""
    if "healer_id" in call.args:
        return _char(call, "healer_id")
    if call.is_gm:
        return None
    if call.character:
        return _char_by_id(call, call.character)
    if call.character == "":
        raise denied("the requester has no character to give a potion")
    mine = sorted(
        (c for c in call.state["characters"].values() if c.get("controller") == call.requester),
        key=lambda c: c["id"],
    )
    if len(mine) != 1:
        raise invalid("name the character who gives the potion (healer_id)")
    return mine[0]


def _char_by_id(call: Call, char_id: str, *, named_by: str = "") -> dict[str, Any]:
    """The character `char_id`; refused, naming the argument that gave it, if there is none."""
    char = call.state["characters"].get(char_id)
    if char is None:
        raise invalid(f"{named_by} {char_id!r}".strip() + " is not a character in this campaign")
    return char


def heal(call: Call) -> Outcome:
    """A player's heal is a potion of healing (2d4+2) given by a character they control, which
    in combat takes that character's action on its own turn. The GM heals any amount. Neither
    is a healing spell: the SRD's "no effect on undead or constructs" is Cure Wounds' and
    Healing Word's (spell_cast), not a potion's, and the GM's heal is the GM's ruling, so
    both mend any creature."""
    target = _char(call, "target_id")
    amount = call.args.get("amount")
    if not call.is_gm:
        if target["kind"] == "monster":
            raise denied("only the GM may heal monsters")
        if amount is not None:
            raise invalid(
                f"players heal with a potion of healing ({POTION_OF_HEALING}, rolled by the "
                "rules): leave out amount; only the GM heals a chosen amount"
            )
    healer = _healer(call)
    if healer is not None:
        _require_control(call, healer)
    # Nothing is spent on the dead or on a creature at full hit points.
    rules.check_can_heal(target, who=_who_char(call))
    result: dict[str, Any] = {}
    if healer is not None:
        healer_name = _who(call, healer["id"])
        blocking = sorted(set(healer["conditions"]) & rules.CANNOT_ACT)
        if rules.is_dead(healer) or blocking:
            state = "dead" if rules.is_dead(healer) else " and ".join(blocking)
            raise invalid(f"{healer_name} cannot give a potion while {state}")
        combat = call.state.get("combat") or {}
        fighting = healer["id"] in (combat.get("budgets") or {})
        if fighting and _current_id(combat) != healer["id"]:
            # Whose turn it is comes first: out of turn, nothing else matters.
            raise invalid(f"it is {_who(call, _current_id(combat))}'s turn, not {healer_name}'s")
        positions = combat.get("positions") or {}
        here, there = positions.get(healer["id"]), positions.get(target["id"])
        if healer is not target and here is not None and there is not None:
            distance = rules.grid_distance(here, there)
            if distance > rules.FEET_PER_SQUARE:
                raise invalid(
                    f"{_away(call, target, distance, healer_name)}; "
                    "a potion is given within 5 ft. Move closer first."
                )
        if fighting:
            # Out of the fight (as for standing up), a potion costs no turn's action.
            _spend(call, healer["id"], "action")
        result.update(healer_id=healer["id"], healer_name=healer_name)
    if amount is None:
        rolled = rules.dice.roll(POTION_OF_HEALING, call.rng)
        amount = max(1, rolled["total"])
        result.update(source="potion_of_healing", potion=rolled)
    else:
        result["source"] = "gm"
    result.update(rules.heal(target, amount, who=_who_char(call)))
    result["target_name"] = _who(call, target["id"])
    if target["kind"] == "monster":
        result["status"] = rules.status_word(target)
    ids = [target["id"]] + ([healer["id"]] if healer is not None else [])
    return Outcome(
        _heal_view(call, target, result),
        scopes=[f"character:{target['id']}", *_combat_scopes(call, *ids)],
        entity_ids=sorted(set(ids)),
    )


def temp_hp_grant(call: Call) -> Outcome:
    """The GM, or the character's controller, grants temporary hit points (a spell, a feature):
    they do not stack, the higher is kept, and damage spends them first."""
    target = _char(call, "target_id")
    _require_control(call, target)
    result = rules.grant_temp_hp(target, call.args["amount"], who=_who_char(call))
    result["target_name"] = _who(call, target["id"])
    return Outcome(
        result,
        scopes=[f"character:{target['id']}", *_combat_scopes(call, target["id"])],
        entity_ids=[target["id"]],
    )


def spell_cast(call: Call) -> Outcome:
    """A spell at a slot level: the slot is spent and the spell's effect rolled and applied. A
    cleric's Cure Wounds or Healing Word heals as `heal` does (a dying target comes to; never
    the dead, and never undead or constructs, on whom they have no effect); a wizard's Magic
    Missile damages as `damage_apply` does (never the dead). A cantrip spends no slot: Fire
    Bolt is a spell attack made as `attack` makes one, Sacred Flame a DEX save against the
    caster's spell save DC. A spell that targets a creature the caster can see (`needs_sight`)
    is refused on one it cannot. A cleric's Shield of Faith gives any living creature in range
    +2 AC while the caster concentrates (one spell at a time: a new one ends the last); its
    Bless (`target_ids`, up to 3 and one more per slot level above 1st) adds 1d4 to its
    targets' attack rolls and saves as long. In combat only on the caster's turn, taking its
    action or bonus action."""
    caster = _char(call, "caster_id")
    targets = _spell_targets(call)
    target = targets[0]
    _require_control(call, caster)
    who = _who(call, caster["id"])
    spell = rules.SPELLS[call.args["spell"]]
    if call.args.get("end_concentration"):
        return _end_concentration(call, caster, targets)
    if "targets" not in spell and len(targets) > 1:
        raise invalid(f"{spell['name']} targets one creature: give target_id")
    cantrip = spell["level"] == 0
    if cantrip and "slot_level" in call.args:
        raise invalid(
            f"{spell['name']} is a cantrip, cast without a spell slot: leave out slot_level"
        )
    slot_level = call.args.get("slot_level", spell["level"])
    if rules.is_dead(caster):
        raise invalid(f"{who} is dead and cannot cast spells")
    if blocking := sorted(set(caster["conditions"]) & rules.CANNOT_ACT):
        raise invalid(f"{who} cannot cast spells while {' and '.join(blocking)}")
    template = rules.spellcasting_class(caster)
    if template is None:
        raise invalid(f"{who} casts no spells: only a cleric or a wizard has spell slots here")
    if call.args["spell"] not in rules.known_spells(caster):
        raise invalid(f"{who} cannot cast {spell['name']}: it is not a {template} spell")
    if slot_level < spell["level"]:
        raise invalid(
            f"{spell['name']} is a level {spell['level']} spell: cast it with a slot of level "
            f"{spell['level']} or higher"
        )
    slot = None
    if not cantrip:
        slot = rules.slots_of(caster).get(str(slot_level))
        if slot is None:
            raise invalid(f"{who} has no level {slot_level} spell slots")
        if slot["current"] < 1:
            raise invalid(f"{who} has no level {slot_level} spell slot left (0 of {slot['max']})")
    # Nothing is spent on the dead, on a creature the spell has no effect on (healing on undead
    # or constructs), on a creature at full hit points (healing) or on oneself (damage, as an
    # attack is refused).
    rules.check_spell_affects(spell, target, who=_who_char(call))
    if len(targets) > (most := rules.max_targets(spell, slot_level)):
        raise invalid(
            f"{spell['name']} with a level {slot_level} slot targets up to {most} creatures, not "
            f"{len(targets)} (one more per slot level above {rules.ordinal(spell['level'])})"
        )
    if spell["effect"] == "heal":
        rules.check_can_heal(target, who=_who_char(call))
    elif spell["effect"] in ("ac_bonus", "bless"):
        # A ward or a blessing is laid on any living creature in range, the caster too.
        for each in targets:
            if rules.is_dead(each):
                raise invalid(f"{_who(call, each['id'])} is dead")
    else:
        if caster["id"] == target["id"]:
            raise invalid(f"{who} cannot target {_oneself(caster)} with {spell['name']}")
        if rules.is_dead(target):
            raise invalid(f"{_who(call, target['id'])} is dead and cannot take damage")
    if spell.get("needs_sight") and (unseen := _unseen_by(call, caster, target)):
        # Before range: how far a hidden monster is would say where it is.
        raise invalid(f"{unseen}, and {spell['name']} targets a creature {who} can see")
    combat = call.state.get("combat") or {}
    fighting = caster["id"] in (combat.get("budgets") or {})
    if fighting:
        # Out of the fight (as for a potion), a spell costs no turn's action, and with no turns
        # no bonus-action spell limits what else is cast.
        _spend(call, caster["id"], spell["casting"])
        rules.check_spell_this_turn(
            spell,
            [rules.SPELLS[key] for key in _spells_this_turn(combat, caster["id"])],
            who=who,
        )
    positions = combat.get("positions") or {}
    for each in targets:
        here, there = positions.get(caster["id"]), positions.get(each["id"])
        if caster is each or here is None or there is None:
            continue
        distance = rules.grid_distance(here, there)
        if distance > spell["range"]:
            reach = (
                "is cast by touch (5 ft)"
                if spell["range"] == rules.FEET_PER_SQUARE
                else f"reaches {spell['range']} ft"
            )
            raise invalid(
                f"{_away(call, each, distance, who)}; {spell['name']} {reach}. Move closer first."
            )
    if slot is not None:
        slot["current"] -= 1
    if fighting:
        turn = [combat["round"], combat["turn_index"]]
        combat.setdefault("spells_cast", {})[caster["id"]] = {
            "turn": turn,
            "spells": [*_spells_this_turn(combat, caster["id"]), call.args["spell"]],
        }
    result: dict[str, Any] = {
        "caster_id": caster["id"],
        "caster_name": who,
        "spell": call.args["spell"],
        "spell_name": spell["name"],
        "slot_level": slot_level,
        **({"slots_left": slot["current"]} if slot is not None else {}),
        "casting": spell["casting"],
        "source": "spell",
    }
    if spell["effect"] == "attack":
        # Made as `attack` makes one (range, hiding, Help, Dodge, a dying target's critical),
        # so it is reached first: a hidden caster strikes with advantage, then is revealed.
        chosen = rules.spell_attack(caster, spell)
        result.update(
            _resolve_attack(call, caster, target, chosen, _reach(call, caster, target, chosen))
        )
    elif spell["effect"] == "save":
        result.update(_spell_save(call, caster, spell, target))
    elif spell["effect"] in ("ac_bonus", "bless"):
        # One concentration at a time: a new one ends the last (SRD 5.1).
        if (ended := rules.end_concentration(caster)) is not None:
            result["concentration_ended"] = {
                "spell": ended["spell"],
                "spell_name": rules.SPELLS[ended["spell"]]["name"],
                **_held_targets(call, ended),
            }
        if spell["effect"] == "bless":
            result.update(rules.bless(caster, targets, call.args["spell"], spell))
            result["target_ids"] = [each["id"] for each in targets]
            result["target_names"] = [_who(call, each["id"]) for each in targets]
        else:
            result.update(rules.ward(caster, target, call.args["spell"], spell))
        _start_duration(call, caster, call.args["spell"], spell)
    elif spell["effect"] == "heal":
        expression = rules.healing_spell_expression(caster, spell, slot_level)
        result["roll"] = rules.dice.roll(expression, call.rng)
        result.update(rules.heal(target, max(0, result["roll"]["total"]), who=_who_char(call)))
        if target["kind"] == "monster":
            result["status"] = rules.status_word(target)
    else:
        result["darts"] = rules.darts_of(spell, slot_level)
        result["roll"] = rules.dice.roll(rules.damage_spell_expression(spell, slot_level), call.rng)
        # Each dart strikes on its own (SRD): resistance halves each, and every dart that
        # lands on a creature at 0 HP is a failed death save.
        kept = [value for term in result["roll"]["rolls"] for value in term["kept"]]
        hits = [value + spell["dart_bonus"] for value in kept]
        result["damage"] = rules.apply_hits(
            target, hits, spell["damage_type"], rng=call.rng, who=_who_char(call)
        )
        # Dropped to 0 HP: unconscious, as damage_apply and an attack's hit end these.
        _lose_dodge(call, target)
        _lose_hiding(call, target)
    if _hidden(call, caster):
        # Its words are spoken aloud: a spell gives away where the caster is, as an attack does.
        _reveal(call, caster)
    # A several-target spell's first target too, so every reader of one target still reads.
    result["target_id"] = target["id"]
    result["target_name"] = _who(call, target["id"])
    ids = sorted({caster["id"], *(each["id"] for each in targets)})
    lapsed = _lapse(call)
    return Outcome(
        _spell_view(call, caster, target, result),
        scopes=sorted(
            {f"character:{char_id}" for char_id in ids}
            | set(_combat_scopes(call, *ids))
            | set(lapsed)
        ),
        entity_ids=ids,
    )


def _spell_targets(call: Call) -> list[dict[str, Any]]:
    """The creatures spell_cast names: target_id's one, or target_ids' (distinct, as the input
    schema requires), in the order given."""
    if "target_ids" in call.args:
        if "target_id" in call.args:
            raise invalid("give target_id or target_ids, not both")
        return [
            _char_by_id(call, char_id, named_by="target_ids") for char_id in call.args["target_ids"]
        ]
    if "target_id" not in call.args:
        raise invalid("give target_id, or target_ids for a spell that targets several creatures")
    return [_char(call, "target_id")]


def _held_targets(call: Call, held: dict[str, Any]) -> dict[str, Any]:
    """Whom a held concentration spell is on, as results and reads say it: target_id and
    target_name for a one-target spell, target_ids and target_names for a several-target one
    (Bless)."""
    if "target_ids" in held:
        return {
            "target_ids": list(held["target_ids"]),
            "target_names": [_who(call, char_id) for char_id in held["target_ids"]],
        }
    return {"target_id": held["target_id"], "target_name": _who(call, held["target_id"])}


def _end_concentration(
    call: Call, caster: dict[str, Any], targets: list[dict[str, Any]]
) -> Outcome:
    """SRD 5.1: a caster ends its concentration at any time, no action required: in or out of
    its turn, spending nothing. Refused unless it concentrates on that spell on those targets
    (a several-target spell, Bless, is named by any of its targets and ends on all of them)."""
    who = _who(call, caster["id"])
    key = call.args["spell"]
    held = caster.get("concentration")
    if held is None:
        raise invalid(f"{who} is concentrating on no spell")
    on = rules.concentration_targets(held)
    if held["spell"] != key:
        raise invalid(
            f"{who} is concentrating on {rules.SPELLS[held['spell']]['name']}, not on "
            f"{rules.SPELLS[key]['name']}"
        )
    if missing := [t for t in targets if t["id"] not in on]:
        raise invalid(
            f"{who} is concentrating on {rules.SPELLS[key]['name']} on "
            f"{_and([_who(call, char_id) for char_id in on])}, not on "
            f"{_and([_who(call, t['id']) for t in missing])}"
        )
    rules.end_concentration(caster)
    lapsed = _lapse(call)
    ended = {"spell": key, "spell_name": rules.SPELLS[key]["name"], **_held_targets(call, held)}
    return Outcome(
        {
            "caster_id": caster["id"],
            "caster_name": who,
            **ended,
            # The target named, as every spell_cast result names one.
            "target_id": targets[0]["id"],
            "target_name": _who(call, targets[0]["id"]),
            "concentration_ended": ended,
        },
        scopes=sorted({f"character:{caster['id']}", *lapsed, *_combat_scopes(call, caster["id"])}),
        entity_ids=sorted({caster["id"], *on}),
    )


def _and(names: list[str]) -> str:
    """Names as a sentence lists them: "Ash", "Ash and Bram", "Ash, Bram and Wren"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _unseen_by(call: Call, viewer: dict[str, Any], target: dict[str, Any]) -> str | None:
    """Why `viewer` cannot see `target`, as a refusal says it, or None when it can. As attack
    models seeing: a blinded viewer sees nothing, an invisible target goes unseen, and so does a
    hidden foe (a hidden creature stays in sight of its own side). Oneself is always in view."""
    if viewer["id"] == target["id"]:
        return None
    who, name = _who(call, viewer["id"]), _who(call, target["id"])
    if "blinded" in viewer["conditions"]:
        return f"{who} is blinded: {who} cannot see {name}"
    if "invisible" in target["conditions"]:
        return f"{name} is invisible: {who} cannot see it"
    if _hostile(viewer, target) and _hidden(call, target):
        return f"{name} is hidden: {who} cannot see it"
    return None


def _spell_save(
    call: Call, caster: dict[str, Any], spell: dict[str, Any], target: dict[str, Any]
) -> dict[str, Any]:
    """A save spell on `target`: its saving throw against the caster's spell save DC (a Dodge
    gives a DEX save advantage, as saving_throw's does), and on a failure the spell's damage,
    applied as damage_apply applies it. The rules model no cover, so none is ignored."""
    ability = spell["save"]
    save = rules.forced_save(
        target,
        call.rng,
        ability=ability,
        dc=rules.spell_save_dc(caster),
        advantage_reasons=_dodging(call, target) if ability == "dex" else [],
        who=_who_char(call),
    )
    save.update(
        {
            # Named as saving_throw names its roller: whoever shows the roll knows from this
            # alone whether its natural die may go to the table (a monster's gives away its
            # modifier).
            "character_id": target["id"],
            "character_name": _who(call, target["id"]),
            "character_kind": target["kind"],
            "kind": "save",
        }
    )
    result: dict[str, Any] = {"save": save}
    if save["success"]:
        return result
    expression = (
        rules.cantrip_dice(caster, spell["damage"]) if spell["level"] == 0 else spell["damage"]
    )
    result["roll"] = rules.dice.roll(expression, call.rng)
    result["damage"] = rules.apply_damage(
        target,
        max(0, result["roll"]["total"]),
        spell["damage_type"],
        rng=call.rng,
        who=_who_char(call),
    )
    # Dropped to 0 HP: unconscious, as damage_apply and an attack's hit end these.
    _lose_dodge(call, target)
    _lose_hiding(call, target)
    return result


def _spells_this_turn(combat: dict[str, Any], caster_id: str) -> list[str]:
    """The spells `caster_id` has cast this turn, in order (kept per combatant with the turn
    they were cast on, so the next turn starts with none)."""
    cast = (combat.get("spells_cast") or {}).get(caster_id)
    if not cast or cast["turn"] != [combat["round"], combat["turn_index"]]:
        return []
    return list(cast["spells"])


def long_rest(call: Call) -> Outcome:
    """The party, or one named character, finishes a long rest (SRD): hit points to their
    maximum, temporary ones gone, spell slots back, half the Hit Dice back. One at 0 HP gains
    nothing from it."""
    chars = call.state["characters"]
    if "character_id" in call.args:
        char = _char(call, "character_id")
        if char["kind"] != "pc":
            raise invalid(f"{_who(call, char['id'])} is not a player character")
        resting = [char]
    else:
        resting = sorted((c for c in chars.values() if c["kind"] == "pc"), key=lambda c: c["id"])
        if not resting:
            raise invalid("there are no player characters to rest")
    rested, skipped = [], []
    for char in resting:
        who = _who(call, char["id"])
        if rules.is_dead(char) or char["hp"]["current"] == 0:
            # A character needs at least 1 hit point at the start of the rest to gain from it.
            reason = "dead" if rules.is_dead(char) else "at 0 hit points"
            skipped.append({"character_id": char["id"], "character_name": who, "reason": reason})
            continue
        rested.append({**rules.long_rest(char), "character_name": who})
    if not rested:
        names = ", ".join(f"{s['character_name']} is {s['reason']}" for s in skipped)
        raise invalid(f"no one gains anything from a long rest: {names}")
    ids = [r["character_id"] for r in rested]
    lapsed = _lapse(call)  # what the rested casters held, on others too
    return Outcome(
        {"rested": rested, "skipped": skipped},
        scopes=sorted({*(f"character:{char_id}" for char_id in ids), *lapsed}),
        entity_ids=sorted(ids),
    )


def short_rest(call: Call) -> Outcome:
    """A player character finishes a short rest (SRD), spending Hit Dice to heal: a player for
    their own character, the GM for any. Outside combat only (the phase says so)."""
    char = _char(call, "character_id")
    who = _who(call, char["id"])
    if char["kind"] != "pc":
        raise invalid(f"{who} is not a player character")
    _require_control(call, char)
    result = rules.short_rest(char, call.args["dice"], call.rng, who=_who_char(call))
    result["character_name"] = who
    lapsed = _lapse(call)  # what the rested caster held, on others too
    return Outcome(
        result,
        scopes=sorted({f"character:{char['id']}", *lapsed}),
        entity_ids=[char["id"]],
    )


def _temp_hp_public(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    """A monster's temporary hit points are part of its hidden hit points: the public sees
    only that it was given some."""
    if _target(call, result)["kind"] != "monster":
        return result
    return {"target_id": result["target_id"], "target_name": result["target_name"]}


def condition_add(call: Call) -> Outcome:
    target = _char(call, "target_id")
    condition = call.args["condition"]
    who = _who(call, target["id"])
    if rules.is_dead(target):
        raise invalid(f"{who} is dead")
    if condition in target["conditions"]:
        raise invalid(f"{who} is already {condition}")
    if condition in rules.condition_immunities(target):
        raise invalid(f"{who} is immune to being {condition}")
    rules.add_condition(target, condition)
    if condition == "unconscious":
        # SRD: an unconscious creature drops what it holds and falls prone; waking up (removing
        # unconscious) leaves it prone until it stands up.
        rules.add_condition(target, "prone")
    result: dict[str, Any] = {"target_id": target["id"], "conditions": list(target["conditions"])}
    if condition in rules.CANNOT_ACT:
        # SRD 5.1: an incapacitated creature loses its concentration.
        lost = rules.concentration_lost(target, f"{who} is {condition}")
        if lost is not None:
            result["concentration"] = lost
    _lose_dodge(call, target)
    _lose_hiding(call, target)
    lapsed = _lapse(call)
    return Outcome(
        result,
        scopes=sorted({f"character:{target['id']}", *_combat_scopes(call, target["id"]), *lapsed}),
        entity_ids=[target["id"]],
    )


def condition_remove(call: Call) -> Outcome:
    target = _char(call, "target_id")
    condition = call.args["condition"]
    if condition not in target["conditions"]:
        raise invalid(f"{_who(call, target['id'])} is not {condition}")
    if condition == "unconscious" and target["hp"]["current"] == 0:
        raise invalid("a creature at 0 HP stays unconscious until healed")
    rules.remove_condition(target, condition)
    return Outcome(
        {"target_id": target["id"], "conditions": list(target["conditions"])},
        scopes=[f"character:{target['id']}", *_combat_scopes(call, target["id"])],
        entity_ids=[target["id"]],
    )


def stand_up(call: Call) -> Outcome:
    """Stand up from prone: in combat on the character's own turn, for half its speed."""
    char = _char(call, "character_id")
    _require_control(call, char)
    who = _who(call, char["id"])
    if rules.is_dead(char):
        raise invalid(f"{who} is dead")
    if "prone" not in char["conditions"]:
        raise invalid(f"{who} is not prone")
    if char["hp"]["current"] == 0:
        raise invalid(f"{who} cannot stand up while unconscious at 0 HP")
    if blocking := sorted(set(char["conditions"]) & rules.CANNOT_MOVE):
        raise invalid(f"{who} cannot stand up while {' and '.join(blocking)}")
    held = sorted(set(char["conditions"]) & {"grappled", "restrained"})
    if held or char["speed"] == 0:
        why = f"while {', '.join(held)}" if held else "with a speed of 0"
        raise invalid(f"{who} cannot stand up {why}")
    combat = call.state.get("combat")
    cost, left = 0, None
    if combat and char["id"] in combat["budgets"]:
        cost = (char["speed"] + 1) // 2  # half its speed, rounded up
        _spend(call, char["id"], "movement", 0)  # its own turn
        left = combat["budgets"][char["id"]]["movement"]
        if left < cost:
            raise invalid(
                f"{who} needs {cost} ft of movement to stand up and has {left} ft left this turn"
            )
        _spend(call, char["id"], "movement", cost)
        left -= cost
    rules.remove_condition(char, "prone")
    return Outcome(
        {
            "character_id": char["id"],
            "character_name": who,
            "conditions": list(char["conditions"]),
            "movement_cost": cost,
            "movement_left": left,
            # Kept, so a replay answers the same once it is revealed: its movement is the GM's.
            **({"hidden": True} if char["kind"] == "monster" and _hidden(call, char) else {}),
        },
        scopes=[f"character:{char['id']}", *_combat_scopes(call, char["id"])],
        entity_ids=[char["id"]],
    )


def death_save(call: Call) -> Outcome:
    char = _char(call, "character_id")
    _require_control(call, char)
    combat = call.state.get("combat")
    fighting = bool(combat) and char["id"] in combat["budgets"]
    # What the rules say about the character (dead, not dying, stable) is said first: the dead
    # get no turn to wait for.
    rules.check_can_death_save(char, who=_who_char(call))
    if fighting:
        # One save per turn, on the dying character's own turn (5e: at its start).
        current = _current_id(combat)
        if current != char["id"]:
            raise invalid(f"it is {_who(call, current)}'s turn, not {_who(call, char['id'])}'s")
        budget = combat["budgets"][char["id"]]
        if budget.get("death_save_made"):
            raise invalid(f"{_who(call, char['id'])} has already made a death save this turn")
        if not budget.get("death_save_due"):
            # Dropped during this turn: the first save comes as its next turn starts.
            raise invalid(
                f"{_who(call, char['id'])} dropped this turn: the first death save comes at the "
                "start of the next"
            )
    else:
        # Out of combat there are no turns to make saves at the start of, and nothing would
        # stop a player rolling until a 20: only the GM calls for one.
        if not call.is_gm:
            raise DomainError(
                "invalid_request",
                f"{_who(call, char['id'])} is not in combat: a death save is made at the start "
                "of the dying creature's turn in combat; outside combat only the GM calls for "
                "one",
                recovery="ask the GM to call for a death save",
            )
    result = rules.death_save(char, call.rng, who=_who_char(call))
    result.update(character_id=char["id"], character_name=_who(call, char["id"]))
    entity_ids = [char["id"]]
    scopes = [f"character:{char['id']}", *_combat_scopes(call, char["id"])]
    if fighting:
        combat["budgets"][char["id"]]["death_save_made"] = 1
        if rules.is_dead(char) and any(
            not rules.is_dead(call.state["characters"][e["id"]]) for e in combat["order"]
        ):
            # The dead do not keep the turn: it passes as "end turn" would pass it, into a new
            # round when it wraps (said, so the caller knows the turn without a read).
            turn = _advance_turn(call)
            result.update(current=turn.current, round=combat["round"], **turn.said())
            entity_ids += [turn.current, *turn.entity_ids()]
            scopes += turn.scopes
    return Outcome(result, scopes=sorted(set(scopes)), entity_ids=entity_ids)


def combat_start(call: Call) -> Outcome:
    ids = call.args["participant_ids"]
    chars = call.state["characters"]
    for char_id in ids:
        if char_id not in chars:
            raise invalid(f"participant {char_id!r} is not a character in this campaign")
        if rules.is_dead(chars[char_id]):
            raise invalid(f"{_who(call, char_id)} is dead and cannot join combat")
    order = []
    for char_id in sorted(ids):  # roll in id order so the stream use is reproducible
        char = chars[char_id]
        # Initiative is a DEX check: poisoned or frightened, it is rolled with disadvantage.
        hindered = bool(set(char["conditions"]) & set(rules.CHECK_DISADVANTAGE))
        d20 = rules.roll_d20(call.rng, False, hindered)
        dex = char["abilities"]["dex"]
        order.append(
            {
                "id": char_id,
                "natural": d20["natural"],
                "initiative": d20["natural"] + rules.modifier(dex),
                "dex": dex,
                "mode": d20["mode"],
            }
        )
    order.sort(key=lambda e: (-e["initiative"], -e["dex"], e["id"]))
    width, height = 12, max(6, len(ids) + 1)
    positions: dict[str, list[int]] = {}
    pc_row = monster_row = 0
    # The two sides start face to face in the middle columns, so the first attacks of a fight
    # are in melee reach; moving away (combat_move) is what puts a foe out of reach.
    pc_column, monster_column = width // 2 - 1, width // 2
    for entry in order:
        if chars[entry["id"]]["kind"] == "pc":
            positions[entry["id"]] = [pc_column, pc_row]
            pc_row += 1
        else:
            positions[entry["id"]] = [monster_column, monster_row]
            monster_row += 1
    call.state["combat"] = {
        "round": 1,
        "turn_index": 0,
        "order": order,
        "budgets": {e["id"]: _fresh_budget(chars[e["id"]]) for e in order},
        "positions": positions,
        "grid": {"width": width, "height": height},
    }
    call.state["phase"] = "combat"
    _durations_into_combat(call)
    # campaign_get reports the phase and combat_active.
    return Outcome(
        {"combat": _combat_view(call)},
        scopes=["campaign", "combat", "phase"],
        entity_ids=[e["id"] for e in order],
    )


def _initiative_roll(call: Call, entry: dict[str, Any], char: dict[str, Any]) -> dict[str, Any]:
    """How an order entry's initiative was rolled: the d20 kept, the DEX modifier added and
    the mode; a monster's die and modifier for the GM alone, as _combat_public shows them. A
    combat stored before the mode was kept says none of the three."""
    if "mode" not in entry:
        return {}
    rolled = {
        "natural": entry["natural"],
        "modifier": rules.modifier(entry["dex"]),
        "mode": entry["mode"],
    }
    if char["kind"] == "monster" and not call.is_gm:
        return {k: v for k, v in rolled.items() if k not in _MONSTER_INITIATIVE_HIDDEN}
    return rolled


def _dying(char: dict[str, Any]) -> bool:
    """At 0 HP and making death saves: a player character neither stable nor dead."""
    return (
        char["kind"] == "pc"
        and char["hp"]["current"] == 0
        and not rules.is_dead(char)
        and "stable" not in char["conditions"]
    )


def _fresh_budget(char: dict[str, Any]) -> dict[str, int]:
    budget = {"action": 1, "bonus_action": 1, "reaction": 1, "movement": char["speed"]}
    if _dying(char):
        # Dying as the turn starts: the turn starts with a death save (5e), so it cannot end
        # without one. One that drops during its own turn saves at the start of its next.
        budget["death_save_due"] = 1
    return budget


# Conditions under which a creature's speed is 0: combat_move refuses it any move.
HELD_IN_PLACE = rules.CANNOT_MOVE | {"grappled", "restrained"}


def _budget_view(
    char: dict[str, Any], budget: dict[str, int], *, movement: bool = True
) -> dict[str, int]:
    """The turn's budget as it can be used now: no movement while the creature cannot move
    (the stored feet come back if it wakes or breaks free this turn). Without `movement`, the
    feet left are not shown at all."""
    shown = dict(budget)
    if not movement:
        shown.pop("movement", None)
        return shown
    if set(char["conditions"]) & HELD_IN_PLACE:
        shown["movement"] = 0
    return shown


def _combat_view(call: Call) -> dict[str, Any]:
    combat = _combat(call)
    chars = call.state["characters"]
    return {
        "round": combat["round"],
        "turn_index": combat["turn_index"],
        "current": _current_id(combat),
        "order": [
            {
                "id": e["id"],
                "initiative": e["initiative"],
                **_initiative_roll(call, e, chars[e["id"]]),
                "character": character_view(call, chars[e["id"]]),
                "budget": _budget_view(
                    chars[e["id"]],
                    combat["budgets"][e["id"]],
                    # The feet a hidden monster has left would say how far it went.
                    movement=not _whereabouts_hidden(call, chars[e["id"]]),
                ),
                # Only when hidden: an entry reads as it always has otherwise.
                **({"hidden": True} if _hidden(call, chars[e["id"]]) else {}),
                **(
                    {}
                    if _whereabouts_hidden(call, chars[e["id"]])
                    else {"position": list(combat["positions"][e["id"]])}
                ),
                **_helped_by(call, e["id"]),
            }
            for e in combat["order"]
        ],
        # So a mover can pick squares on the grid (combat_move refuses those off it).
        "grid": dict(combat["grid"]),
        **_opportunity_view(call, combat),
    }


def _opportunity_view(call: Call, combat: dict[str, Any]) -> dict[str, Any]:
    """The opportunity attacks the last move left open, for the GM, who calls them (a hidden
    monster's too, which no one else's answer names); none open, or any other viewer: no
    key."""
    opened = combat.get("opportunity") or {}
    if not call.is_gm or not opened:
        return {}
    return {
        "opportunity": [
            {
                "attacker_id": foe,
                "attacker_name": _who(call, foe),
                "target_id": window["target"],
                "target_name": _who(call, window["target"]),
                "at": list(window["at"]),
            }
            for foe, window in sorted(opened.items())
        ]
    }


def _helped_by(call: Call, ally_id: str) -> dict[str, Any]:
    """The Helps `ally_id` holds, for its entry in the combat view (none: no key). Helping is
    done in plain sight, so every audience sees why its next roll has advantage, as it sees a
    Dodge in the budget."""
    helps = _helps(call.state["combat"], ally_id)
    if not helps:
        return {}
    return {
        "helped_by": [
            {
                "helper_id": h["helper"],
                "helper_name": _who(call, h["helper"]),
                "target_id": h["target"],
                "target_name": _who(call, h["target"]) if h["target"] else None,
            }
            for h in helps
        ]
    }


def combat_status(call: Call) -> View:
    return View({"combat": _combat_view(call)})


class Turn(NamedTuple):
    """A turn passed on: whose turn starts, the spells whose duration ended as it started
    (spells_ended entries) and the scopes that ending changed."""

    current: str
    ended: list[dict[str, Any]]
    scopes: list[str]

    def said(self) -> dict[str, Any]:
        """What a result adds for the spells that ended (nothing when none did)."""
        return {"spells_ended": self.ended} if self.ended else {}

    def entity_ids(self) -> list[str]:
        return [
            char_id
            for e in self.ended
            for char_id in (e["caster_id"], *e.get("target_ids", [e.get("target_id")]))
        ]


def _advance_turn(call: Call) -> Turn:
    """Pass the turn to the next living combatant (a new round after the last), ending the
    spells whose duration is over as that turn starts."""
    combat = _combat(call)
    chars = call.state["characters"]
    size = len(combat["order"])
    index = combat["turn_index"]
    passed = []  # the fallen whose turns are passed over: theirs would have started
    for _ in range(size):
        index += 1
        if index >= size:
            index = 0
            combat["round"] += 1
        if not rules.is_dead(chars[combat["order"][index]["id"]]):
            break
        passed.append(combat["order"][index]["id"])
    combat["turn_index"] = index
    # A reaction is taken as its trigger happens: what the last move provoked lapses.
    combat.pop("opportunity", None)
    next_id = _current_id(combat)
    # The Help action lasts until the helper's next turn starts (or is passed over).
    helped = combat.get("helped") or {}
    for ally in list(helped):
        _keep_helps(
            combat, ally, [h for h in _helps(combat, ally) if h["helper"] not in {next_id, *passed}]
        )
    combat["budgets"][next_id] = _fresh_budget(chars[next_id])
    ended, scopes = _expire_spells(call)
    return Turn(next_id, ended, scopes)


def combat_end_turn(call: Call) -> Outcome:
    combat = _combat(call)
    current = call.state["characters"][_current_id(combat)]
    _require_control(call, current)
    expected = call.args.get("character_id")
    if expected and expected != current["id"]:
        if expected not in {e["id"] for e in combat["order"]}:
            raise invalid(f"{expected} is not in this combat")
        # The turn the caller meant has already ended (a repeated or concurrent "end turn"):
        # ending the one now current would skip a combatant who has not acted.
        raise invalid(
            f"it is {_who(call, current['id'])}'s turn now, not {_who(call, expected)}'s; "
            "that turn has already ended"
        )
    budget = combat["budgets"][current["id"]]
    if budget.get("death_save_due") and not budget.get("death_save_made") and _dying(current):
        raise DomainError(
            "invalid_request",
            f"{_who(call, current['id'])} is dying: make the death save first.",
            recovery="call death_save for the dying character, then end the turn",
        )
    turn = _advance_turn(call)
    return Outcome(
        {"ended": current["id"], "current": turn.current, "round": combat["round"], **turn.said()},
        scopes=["combat", *turn.scopes],
        entity_ids=[current["id"], turn.current, *turn.entity_ids()],
    )


def _stand_up_public(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    """A hidden monster's stand_up without the movement it has left (it says how far it
    went), as its combat actions show it."""
    if call.is_gm or not result.get("hidden"):
        return result
    return {k: v for k, v in result.items() if k != "movement_left"}


def combat_move(call: Call) -> Outcome:
    """Move the current combatant along the cheapest way to (x, y). A player character plans
    its way knowing nothing of a hidden monster's square, and stumbles on the monster there:
    it stops before it, pays for the squares walked alone, and the monster is found."""
    combat = _combat(call)
    char = _char(call, "character_id")
    _require_control(call, char)
    x, y = call.args["x"], call.args["y"]
    if x >= combat["grid"]["width"] or y >= combat["grid"]["height"]:
        raise invalid(
            f"({x}, {y}) is outside the {combat['grid']['width']}x{combat['grid']['height']} grid"
        )
    who = _who(call, char["id"])
    old = combat["positions"].get(char["id"])
    if old is None:
        raise invalid(f"{who} is not in this combat")
    if set(char["conditions"]) & HELD_IN_PLACE:
        raise invalid(f"{who} cannot move while {', '.join(char['conditions'])}")
    chars = call.state["characters"]
    # The hidden monsters in the mover's way, by square: it does not know those squares are
    # taken, so its way is planned as if they were free, and walking it, it stumbles on them.
    unseen = {
        (pos[0], pos[1]): other
        for other, pos in combat["positions"].items()
        if other != char["id"] and other in chars and _square_unknown(call, char, chars[other])
    }
    for other, pos in combat["positions"].items():
        # A body is no creature to share a space with: the dead leave their square free.
        if (
            other != char["id"]
            and pos == [x, y]
            and not rules.is_dead(call.state["characters"][other])
            and other not in unseen.values()
        ):
            raise invalid(f"square ({x}, {y}) is occupied by {_who(call, other)}")
    # SRD 5.1: a prone creature can only crawl (or stand up first, for half its speed),
    # and every foot crawled costs 1 extra foot.
    crawled = "prone" in char["conditions"]
    # The way there, square by square: a living hostile creature's space cannot be crossed
    # (creatures have no size here, so none is two sizes apart and slips through), any other
    # creature's is difficult terrain.
    impassable, difficult = set(), set()
    for other, pos in combat["positions"].items():
        body = chars.get(other)
        if other == char["id"] or body is None or rules.is_dead(body) or other in unseen.values():
            continue
        (impassable if _hostile(char, body) else difficult).add((pos[0], pos[1]))
    path = rules.grid_path(
        old,
        [x, y],
        width=combat["grid"]["width"],
        height=combat["grid"]["height"],
        impassable=impassable,
        difficult=difficult,
        crawling=crawled,
        route=True,
    )
    if path is None:
        raise invalid(f"{who} cannot reach ({x}, {y}): hostile creatures block every way there")
    feet, cost = path["feet"], path["cost"]
    straight = rules.grid_distance(old, [x, y]) * (2 if crawled else 1)
    if cost > straight:
        _spend(call, char["id"], "movement", 0)  # its own turn, before the detour's price
        left = combat["budgets"][char["id"]]["movement"]
        if left < cost:
            raise invalid(
                f"{who} needs {cost} ft of movement to reach ({x}, {y}) around the creatures "
                f"in the way and has {left} ft left this turn"
            )
    if crawled:
        _spend(call, char["id"], "movement", 0)  # its own turn, before the crawl's price
        left = combat["budgets"][char["id"]]["movement"]
        if 0 < left < cost:
            raise invalid(
                f"{who} is prone and crawling {feet} ft costs {cost} ft of movement; "
                f"{who} has only {left} ft left this turn (standing up costs half the speed)"
            )
    _spend(call, char["id"], "movement", cost)  # the whole way as planned must fit
    squares = path["squares"]
    found = next((unseen[(s[0], s[1])] for s in squares if (s[0], s[1]) in unseen), None)
    stop = rules.stopped_before(squares, unseen=set(unseen), difficult=difficult)
    if stop is not None:
        # It stops before the hidden creature and pays for the squares walked alone.
        squares = squares[: stop + 1]
        walked = rules.route_cost(squares, difficult=difficult, crawling=crawled)
        combat["budgets"][char["id"]]["movement"] += cost - walked
        feet, cost = rules.FEET_PER_SQUARE * stop, walked
    combat["positions"][char["id"]] = squares[-1]
    provoked = _provoked(call, char, squares)
    if found is not None:
        # Found, as its attack would give it away: where it stands is no secret now.
        _reveal(call, chars[found])
    # Only the last move's opportunity attacks stay open: the GM calls them at once.
    combat.pop("opportunity", None)
    if provoked:
        combat["opportunity"] = {
            foe: {"target": char["id"], "at": at} for foe, at in provoked.items()
        }
    result: dict[str, Any] = {
        "character_id": char["id"],
        # Said, so a view of the move knows it was made unseen (it stays hidden as it moves).
        **({"hidden": True} if _hidden(call, char) else {}),
        "from": old,
        "to": list(squares[-1]),
        "feet": feet,
        "crawled": crawled,
        "movement_cost": cost,
        "movement_left": combat["budgets"][char["id"]]["movement"],
    }
    if found is not None:
        result["stopped_by"] = {
            "id": found,
            "name": _who(call, found),
            "at": list(combat["positions"][found]),
        }
    if provoked:
        result["opportunity_attacks"] = [
            {
                "attacker_id": foe,
                "attacker_name": _who(call, foe),
                # Kept, so a replay answers the same once it is revealed: the GM's to know.
                **({"hidden": True} if _hidden(call, call.state["characters"][foe]) else {}),
            }
            for foe in provoked
        ]
    moved = [char["id"], *([found] if found is not None else [])]
    return Outcome(_move_view(call, result), scopes=["combat"], entity_ids=moved)


def _square_unknown(call: Call, mover: dict[str, Any], body: dict[str, Any]) -> bool:
    """Whether `body` stands where `mover` does not know of: a living monster hidden from the
    party (the Hide action) in a player character's way. A hidden player character's square is
    shown to all, the GM's monsters' included, so a monster's move is planned knowing it."""
    return (
        mover["kind"] != "monster"
        and _hostile(mover, body)
        and not rules.is_dead(body)
        and _hidden(call, body)
    )


def _move_view(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    """A move as the call's viewer sees it: a hidden monster's (`hidden` in its result, kept
    so a replay answers the same once it is revealed) shows only that it moved, to all but
    the GM; its squares, and the feet and movement that would lead to them, are the GM's. So
    is a hidden monster's opportunity attack the move provoked: it was within reach."""
    if call.is_gm:
        return result
    provoked = [a for a in result.get("opportunity_attacks", ()) if not a.get("hidden")]
    if provoked != result.get("opportunity_attacks", []):
        result = {k: v for k, v in result.items() if k != "opportunity_attacks"}
        if provoked:
            result["opportunity_attacks"] = provoked
    if not result.get("hidden"):
        return result
    if _char_by_id(call, result["character_id"])["kind"] != "monster":
        return result
    return {"character_id": result["character_id"], "hidden": True}


def _provoked(call: Call, mover: dict[str, Any], squares: list[list[int]]) -> dict[str, list[int]]:
    """The hostile creatures whose reach the mover left along `squares`, each with the square
    it left from: those that see it and can take their reaction (SRD opportunity attack).
    Nothing is rolled here: the GM calls each attack as the creature's reaction."""
    combat = call.state["combat"]
    if "invisible" in mover["conditions"] or _hidden(call, mover):
        return {}
    if combat["budgets"].get(mover["id"], {}).get("disengaged"):
        return {}  # the Disengage action, for the rest of this turn
    chars = call.state["characters"]
    provoked = {}
    for other, pos in sorted(combat["positions"].items()):
        foe = chars.get(other)
        if foe is None or other == mover["id"] or not _hostile(mover, foe):
            continue
        if set(foe["conditions"]) & (rules.CANNOT_ACT | {"blinded"}):
            continue
        if combat["budgets"].get(other, {}).get("reaction", 0) < 1:
            continue
        reach = rules.melee_reach(foe)
        if reach is None:
            continue
        for here, there in zip(squares, squares[1:], strict=False):
            if rules.grid_distance(here, pos) <= reach < rules.grid_distance(there, pos):
                provoked[other] = here
                break
    return provoked


COMBAT_ACTIONS = ("dash", "disengage", "dodge", "help", "hide", "shove")


def combat_action(call: Call) -> Outcome:
    """Dash, Disengage, Dodge, Help or Hide (SRD 5.1), each spending the action on the
    creature's own turn, or a shove, one attack of the Attack action. What each grants is kept
    in its turn's budget, which its next turn starts afresh: the Dodge lasts until then, the
    others until the turn ends."""
    combat = _combat(call)
    char = _char(call, "character_id")
    _require_control(call, char)
    who = _who(call, char["id"])
    if rules.is_dead(char):
        raise invalid(f"{who} is dead")
    if blocking := sorted(set(char["conditions"]) & rules.CANNOT_ACT):
        raise invalid(f"{who} cannot act while {' and '.join(blocking)}")
    action = call.args["action"]
    bonus = call.args.get("bonus_action", False)
    if bonus:
        allowed, feature = rules.bonus_combat_actions(char)
        if action not in allowed:
            why = f" ({feature})" if feature else ""
            raise invalid(
                f"{who} cannot take the {action.capitalize()} action as a bonus action{why}"
            )
    if action == "shove":
        _spend_attack(call, char)  # one attack of the Attack action (Extra Attack's too)
    else:
        _spend(call, char["id"], "bonus_action" if bonus else "action")
    budget = combat["budgets"][char["id"]]
    entity_ids, scopes = [char["id"]], ["combat"]
    result: dict[str, Any] = {
        "character_id": char["id"],
        "character_name": who,
        # Whoever tells a Hide knows from this alone whose passive Perception its DC is: a
        # hiding monster's is the party's own, a hiding player character's a monster's.
        "character_kind": char["kind"],
        "action": action,
        "bonus_action": bonus,
    }
    if action == "dash":
        # Extra movement equal to its speed after modifiers: none while its speed is 0.
        gained = 0 if set(char["conditions"]) & HELD_IN_PLACE else char["speed"]
        budget["movement"] += gained
        budget["dashed"] = 1  # shown for the turn, as a Disengage is
        result["movement_gained"] = gained
    elif action == "disengage":
        budget["disengaged"] = 1
    elif action == "hide":
        result.update(_hide(call, char))
    elif action == "help":
        result.update(_help(call, char))
    elif action == "shove":
        result.update(_shove(call, char))
        entity_ids.append(result["target_id"])
        scopes.append(f"character:{result['target_id']}")
    else:
        budget["dodging"] = 1
    result["movement_left"] = _budget_view(char, budget)["movement"]
    if char["kind"] == "monster" and _hidden(call, char):
        # Kept, so a replay answers the same once it is revealed: its movement is the GM's.
        result["hidden"] = True
    return Outcome(
        _combat_action_view(call, result),
        scopes=sorted(scopes),
        entity_ids=sorted(set(entity_ids)),
    )


def _combat_action_view(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    """A combat action as the call's viewer sees it: the square a hidden monster was pushed to
    is the GM's (that it was pushed is everyone's), and so is the movement a hidden monster
    has left (it says how far it went). A monster's side of a shove shows its total, as any of
    its checks does: to the player who shoved it too. The DC a player character hid against is
    a monster's passive Perception, of its hidden stat block (as its AC is): the GM's, while
    whether it hid and its total are everyone's. A monster hides against the party's own."""
    if call.is_gm:
        return result
    hidden = []
    hider = _char_by_id(call, result["character_id"])
    if result.get("dc") is not None and hider["kind"] == "pc":
        hidden.append("dc")
        result = {**result, "check": {k: v for k, v in result["check"].items() if k != "dc"}}
    if result.get("target_hidden"):
        hidden.append("to")
    if result.get("hidden") and hider["kind"] == "monster":
        hidden.append("movement_left")
    shown = {k: v for k, v in result.items() if k not in hidden}
    if "contest" in result:
        contest = dict(result["contest"])
        for side, char_id in (
            ("shover_check", result["character_id"]),
            ("target_check", result["target_id"]),
        ):
            if _char_by_id(call, char_id)["kind"] == "monster":
                contest[side] = _shown_check(contest[side])
        shown["contest"] = contest
    return shown


def _contest_check(call: Call, char: dict[str, Any], skill: str) -> dict[str, Any]:
    """One side of a contest: the skill's check (its proficiency and Expertise), no DC."""
    check = rules.check(
        char,
        call.rng,
        ability=rules.SKILLS[skill],
        dc=None,  # a contest has no DC: the higher total wins
        proficient=skill in char.get("skill_proficiencies", []),
        advantage=False,
        disadvantage=False,
        bonus=0,
        expertise=skill in rules.skill_expertise(char),
        advantage_reasons=_helped(call, char, None),  # an ability check the Help aids
        who=_who_char(call),
    )
    return {**check, "skill": skill}


def _shove(call: Call, shover: dict[str, Any]) -> dict[str, Any]:
    """Shoving a creature within 5 ft: the shover's Strength (Athletics) against the target's
    Strength (Athletics) or Dexterity (Acrobatics), the better of the two; a win knocks it
    prone or pushes it 5 ft away, a tie or a loss changes nothing."""
    who = _who(call, shover["id"])
    if "target_id" not in call.args:
        raise invalid(f"name the creature {who} shoves (target_id)")
    target = _char(call, "target_id")
    name = _who(call, target["id"])
    if target["id"] == shover["id"]:
        raise invalid(f"{who} cannot shove {_oneself(shover)}")
    if rules.is_dead(target):
        raise invalid(f"{name} is already dead")
    larger = rules.SIZES.index(rules.size(target)) - rules.SIZES.index(rules.size(shover))
    if larger > 1:
        raise invalid(
            f"{name} is {rules.size(target).capitalize()}, more than one size larger than "
            f"{who} ({rules.size(shover).capitalize()}): too big to shove"
        )
    positions = call.state["combat"]["positions"]
    if target["id"] not in positions:
        # No square to be within 5 ft of, nor to be pushed from.
        raise invalid(f"{name} is not in this combat")
    here, there = positions[shover["id"]], positions[target["id"]]
    distance = rules.grid_distance(here, there)
    if distance > rules.FEET_PER_SQUARE:
        raise invalid(f"{_away(call, target, distance, who)}; a shove reaches 5 ft")
    kind = call.args.get("shove", "prone")
    shoving = _contest_check(call, shover, "athletics")
    resisting = max(
        ("athletics", "acrobatics"), key=lambda skill: (rules.skill_bonus(target, skill), skill)
    )
    resisted = _contest_check(call, target, resisting)
    won = shoving["total"] > resisted["total"]
    if _hidden(call, shover):
        # A shove is a special melee attack: it gives away where its hidden shover is, win or
        # lose, as any attack does.
        _reveal(call, shover)
    result: dict[str, Any] = {
        "target_id": target["id"],
        "target_name": name,
        "shove": kind,
        "contest": {
            "shover_total": shoving["total"],
            "target_total": resisted["total"],
            "target_skill": resisting,
            "shover_check": shoving,
            "target_check": resisted,
        },
        "success": won,
        "effect": None,
    }
    if not won:
        return result
    if kind == "prone":
        if "prone" in rules.condition_immunities(target):
            result["blocked"] = f"{name} cannot be knocked prone"
        elif "prone" in target["conditions"]:
            # Nothing changes: said so, not as a creature knocked down.
            result["blocked"] = f"{name} is already prone"
        else:
            rules.add_condition(target, "prone")
            result["effect"] = "prone"
        return result
    # Pushed 5 ft straight away from the shover, onto a free square of the grid.
    step = [(b > a) - (b < a) for a, b in zip(here, there, strict=True)]
    to = [there[0] + step[0], there[1] + step[1]]
    grid = call.state["combat"]["grid"]
    taken = any(
        pos == to and not rules.is_dead(call.state["characters"][other])
        for other, pos in positions.items()
        if other in call.state["characters"]
    )
    if not (0 <= to[0] < grid["width"] and 0 <= to[1] < grid["height"]) or taken:
        result["blocked"] = f"there is no room to push {name} into"
        return result
    positions[target["id"]] = to
    result.update(effect="pushed", to=to)
    if target["kind"] == "monster" and _hidden(call, target):
        # Kept, so a replay answers the same once it is revealed: `to` is the GM's.
        result["target_hidden"] = True
    return result


def _hide(call: Call, char: dict[str, Any]) -> dict[str, Any]:
    """The Hide action: a Dexterity (Stealth) check against the best passive Wisdom
    (Perception) of the hostile creatures able to notice it (none: it hides unchecked). Whether
    there is cover to hide behind is the GM's call; the rules know no line of sight."""
    combat = call.state["combat"]
    chars = call.state["characters"]
    watchers = [
        chars[e["id"]]
        for e in combat["order"]
        if e["id"] in chars
        and _hostile(char, chars[e["id"]])
        and not set(chars[e["id"]]["conditions"]) & (rules.CANNOT_ACT | {"blinded"})
    ]
    hidden = set(combat.get("hidden") or [])
    if not watchers:
        combat["hidden"] = sorted(hidden | {char["id"]})
        return {"hidden": True, "dc": None, "check": None}
    dc = max(rules.passive_perception(w) for w in watchers)
    check = rules.check(
        char,
        call.rng,
        ability="dex",
        dc=dc,
        proficient="stealth" in char.get("skill_proficiencies", []),
        advantage=False,
        disadvantage=False,
        bonus=0,
        expertise="stealth" in rules.skill_expertise(char),
        advantage_reasons=_helped(call, char, None),  # an ability check the Help aids
        who=_who_char(call),
    )
    check["skill"] = "stealth"
    if check["success"]:
        hidden.add(char["id"])
    else:
        hidden.discard(char["id"])
    combat["hidden"] = sorted(hidden)
    return {"hidden": check["success"], "dc": dc, "check": check}


def _help(call: Call, helper: dict[str, Any]) -> dict[str, Any]:
    """The Help action: the ally's next attack roll against `target_id`, a foe within 5 ft of
    the helper, has advantage; with no foe named, the ally's next ability check does. Either
    lapses when the helper's next turn starts. The ally must be in the combat; how far it is
    from the helper does not matter (SRD 5.1 sets no range on the ally)."""
    who = _who(call, helper["id"])
    if "ally_id" not in call.args:
        raise invalid(f"name the ally {who} helps (ally_id)")
    ally = _char(call, "ally_id")
    if ally["id"] == helper["id"] or _hostile(helper, ally):
        raise invalid(f"{_who(call, ally['id'])} is no ally of {who}")
    if rules.is_dead(ally):
        raise invalid(f"{_who(call, ally['id'])} is dead")
    combat = call.state["combat"]
    if ally["id"] not in combat["budgets"]:
        # It gets no turn in this fight to use the Help on before the helper's next turn.
        raise invalid(
            f"{_who(call, ally['id'])} is not in this combat: {who}'s Help aids an ally who "
            "takes part in it"
        )
    target = None
    if "target_id" in call.args:
        target = _char(call, "target_id")
        if not _hostile(helper, target):
            raise invalid(f"{_who(call, target['id'])} is no foe of {who}")
        if rules.is_dead(target):
            raise invalid(f"{_who(call, target['id'])} is already dead")
        if target["id"] not in combat["positions"]:
            # No square to be within 5 ft of the helper on.
            raise invalid(f"{_who(call, target['id'])} is not in this combat")
        here, there = combat["positions"][helper["id"]], combat["positions"][target["id"]]
        distance = rules.grid_distance(here, there)
        if distance > rules.FEET_PER_SQUARE:
            raise invalid(
                f"{_away(call, target, distance, who)}; the Help "
                "action aids an attack on a foe within 5 ft of the helper"
            )
    given = {"helper": helper["id"], "target": target["id"] if target else None}
    # Another creature's Help for the same ally stands beside this one: each lapses on its own
    # helper's turn.
    _keep_helps(combat, ally["id"], [*(h for h in _helps(combat, ally["id"]) if h != given), given])
    return {
        "ally_id": ally["id"],
        "ally_name": _who(call, ally["id"]),
        "target_id": target["id"] if target else None,
        "target_name": _who(call, target["id"]) if target else None,
    }


def _helps(combat: dict[str, Any], ally_id: str) -> list[dict[str, Any]]:
    """The Helps given `ally_id` that have not lapsed, oldest first (a campaign saved when an
    ally held one Help stored it bare)."""
    given = (combat.get("helped") or {}).get(ally_id) or []
    return [given] if isinstance(given, dict) else list(given)


def _keep_helps(combat: dict[str, Any], ally_id: str, helps: list[dict[str, Any]]) -> None:
    helped = combat.setdefault("helped", {})
    if helps:
        helped[ally_id] = helps
    else:
        helped.pop(ally_id, None)


def _helped(call: Call, char: dict[str, Any], target: dict[str, Any] | None) -> list[str]:
    """Why the Help action gives `char` advantage on this roll (an attack on `target`, or an
    ability check with None), using the help up: it aids one roll. Each Help aids the first
    such roll after it (SRD 5.1), so one roll uses every Help that fits it; advantage does not
    stack, the reasons name each helper."""
    combat = call.state.get("combat") or {}
    helps = _helps(combat, char["id"])
    aim = target["id"] if target else None
    used = [h for h in helps if h["target"] == aim]
    if not used:
        return []
    _keep_helps(combat, char["id"], [h for h in helps if h["target"] != aim])
    ally = _who(call, char["id"])
    return [f"{_who(call, h['helper'])} helps {ally} (the Help action)" for h in used]


def _hidden(call: Call, char: dict[str, Any]) -> bool:
    """Hidden by the Hide action, until its own attack reveals it, it is incapacitated (or
    worse) or the fight ends."""
    hidden = (call.state.get("combat") or {}).get("hidden") or []
    return char["id"] in hidden and not set(char["conditions"]) & rules.CANNOT_ACT


def _whereabouts_hidden(call: Call, char: dict[str, Any]) -> bool:
    """Whether the call's viewer may not see where `char` stands: a hidden monster, for all but
    the GM. The players saw it hide, so that it hides is no secret; its square is. A hidden
    player character stays in sight of its party, and of the public too, who see what the
    players see of the party (as character_view shows the public a character's card)."""
    return not call.is_gm and char["kind"] == "monster" and _hidden(call, char)


def _away(call: Call, target: dict[str, Any], distance: int, who: str) -> str:
    """How far `target` is from `who`, as a refusal tells the caller: in feet, or for a monster
    hidden from the caller only that it is too far (how far would say where it is)."""
    if _whereabouts_hidden(call, target):
        return f"{_who(call, target['id'])} is hidden, and not close enough to {who}"
    return f"{_who(call, target['id'])} is {distance} ft away from {who}"


def _reveal(call: Call, char: dict[str, Any]) -> None:
    combat = call.state["combat"]
    combat["hidden"] = [c for c in combat["hidden"] if c != char["id"]]


def _lose_hiding(call: Call, char: dict[str, Any]) -> None:
    """End `char`'s hiding if what just befell it leaves it unable to act (unconscious, dead,
    incapacitated): coming to later does not hide it again."""
    combat = call.state.get("combat") or {}
    if char["id"] in (combat.get("hidden") or []) and set(char["conditions"]) & rules.CANNOT_ACT:
        _reveal(call, char)


def _combat_action_public(call: Call, result: dict[str, Any]) -> dict[str, Any]:
    """A monster's Stealth check, or its side of a shove, shows its total, as any of its checks
    does; where a hidden monster was pushed to, and its movement left, are the GM's."""
    shown = _combat_action_view(call, result)
    if result.get("check") and _char_by_id(call, result["character_id"])["kind"] == "monster":
        shown["check"] = _shown_check(result["check"])
    return shown


def _shown_check(check: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in check.items() if k not in _MONSTER_SAVE_HIDDEN}


def _dodge_lost(char: dict[str, Any]) -> bool:
    """Incapacitated or at speed 0: a Dodge ends (SRD 5.1), not only while that lasts."""
    return bool(set(char["conditions"]) & (rules.CANNOT_ACT | HELD_IN_PLACE)) or not char["speed"]


def _lose_dodge(call: Call, char: dict[str, Any]) -> None:
    """End `char`'s Dodge if what just befell it takes the benefit away: breaking free or
    waking up later does not give it back."""
    budget = ((call.state.get("combat") or {}).get("budgets") or {}).get(char["id"]) or {}
    if budget.get("dodging") and _dodge_lost(char):
        del budget["dodging"]


def _dodging(call: Call, char: dict[str, Any], attacker: dict[str, Any] | None = None) -> list[str]:
    """Why a Dodge helps `char` now: it took the action and has not started its next turn, is
    not incapacitated, its speed is not 0 and (against an attack) it can see the attacker."""
    budget = ((call.state.get("combat") or {}).get("budgets") or {}).get(char["id"]) or {}
    if not budget.get("dodging"):
        return []
    if _dodge_lost(char):
        return []
    if attacker is not None and (
        "blinded" in char["conditions"]
        or "invisible" in attacker["conditions"]
        or _hidden(call, attacker)
    ):
        return []
    return [f"{_who(call, char['id'])} is dodging"]


def _durations_into_combat(call: Call) -> None:
    """Count the concentration spells held as combat starts in its rounds. Out of combat no
    rounds are counted, so a spell cast then is taken as cast just before round 1: its 10
    rounds (or what an earlier fight left of them) are rounds 1 to 10, and it ends as round 11
    starts, before the first turn of it."""
    durations = {}
    for char in call.state["characters"].values():
        held = char.get("concentration")
        rounds = rules.duration_rounds(rules.SPELLS[held["spell"]]) if held else None
        if rounds is None:
            continue
        entry = _duration(call, char) or {}
        left = entry.get("rounds_left", rounds)
        durations[char["id"]] = {"spell": held["spell"], "ends": [1 + left, 0]}
    call.state["durations"] = durations


def _durations_out_of_combat(call: Call) -> None:
    """Keep what each spell has left as combat ends (a part round counted whole), so a fight
    begun again does not give it back its full duration."""
    combat = _combat(call)
    durations = {}
    for caster_id in sorted(call.state.get("durations") or {}):
        caster = call.state["characters"].get(caster_id)
        entry = _duration(call, caster)
        if entry is None or "ends" not in entry:
            continue
        left = rules.rounds_left(entry["ends"], combat["round"], combat["turn_index"])
        durations[caster_id] = {"spell": entry["spell"], "rounds_left": left}
    call.state["durations"] = durations


def combat_end(call: Call) -> Outcome:
    combat = _combat(call)
    ids = [e["id"] for e in combat["order"]]
    rounds = combat["round"]
    _durations_out_of_combat(call)
    call.state["combat"] = None
    call.state["phase"] = "play"
    return Outcome(
        {"ended": True, "rounds": rounds}, scopes=["campaign", "combat", "phase"], entity_ids=ids
    )


def combat_render(call: Call) -> View:
    _combat(call)
    grid = render.grid_data(
        call.state,
        lambda c: character_view(call, c).get("status", rules.status_word(c)),
        shown=lambda c: not _whereabouts_hidden(call, c),
    )
    image = ImageContent(type="image", data=render.svg_base64(grid), mime_type="image/svg+xml")
    return View({"grid": grid, "image_mime_type": "image/svg+xml"}, content=[image])


# -- catalog ----------------------------------------------------------------------------------

CHARACTER_ID = identifier("Character or monster id, e.g. pc-1 or mon-2.")
ROLL_FLAGS = {
    "advantage": boolean("Roll with advantage (cancels with disadvantage)."),
    "disadvantage": boolean("Roll with disadvantage (cancels with advantage)."),
}
CHARACTER_READ = (
    "Audience-filtered character. ac is the AC attacks roll against, spell effects included "
    "(a monster's the GM's alone); effects, present while spells are on it: each {spell, name, "
    "from: the caster's id} and Shield of Faith's ac_bonus (+2 AC) or Bless's dice (1d4 added to "
    "its attack rolls and saving throws); concentration, present while it concentrates on a "
    "spell: {spell, name, target_id, target_name}, or for Bless {spell, name, target_ids, "
    "target_names}. In combat each effect and the concentration also give rounds_left: the "
    "rounds the spell still lasts, a part round counted whole (Bless 1 minute = 10 rounds, "
    "Shield of Faith 10 minutes = 100; it ends as its caster's turn that many rounds after "
    "the casting starts, or one cast out of combat as round 11 or 101 starts)."
)
CHARACTER_OUT = {"character": {"type": "object", "description": CHARACTER_READ}}
# Described, not checked property by property: clients validate every result against it.
CHARACTER_GET_OUT = {
    "character": {
        "type": "object",
        "description": CHARACTER_READ,
        "properties": {
            "sheet": {
                "type": "object",
                "description": (
                    "A player character's sheet (none for a monster): ability_modifiers by "
                    "ability; attacks, each {name, to_hit, damage, damage_type} as the attack "
                    'tool rolls it (a flat amount, an unarmed strike\'s, summed: "3"); spells '
                    "its class casts, each {key, name, level, casting "
                    "(action or bonus_action), range in feet, touch, concentration: true for a "
                    "concentration spell, targets: how many creatures it targets with a slot of "
                    "its level (Bless 3, one more per slot level above; every other spell 1)}; "
                    "concentration: the name of the spell it concentrates on, present only while "
                    "it does."
                ),
                "properties": {
                    "ability_modifiers": {"type": "object", "description": "Keyed str..cha."},
                    "attacks": {"type": "array", "description": "To-hit bonus and damage."},
                    "spells": {"type": "array", "description": "Empty for a non-caster."},
                },
            }
        },
    }
}
CHECK_OUT = {
    "total": {"type": "integer"},
    "success": {"type": "boolean"},
    "character_name": {"type": "string"},
    "character_kind": {
        "type": "string",
        "enum": ["pc", "monster"],
        "description": "Whether the character who rolled is a player character or a monster.",
    },
    "random_stream_receipt": RANDOM_RECEIPT_SCHEMA,
}
# A check may be rolled with no DC (the GM compares its total with what the rules do not hold):
# its result then has neither.
ABILITY_CHECK_OUT = {
    **CHECK_OUT,
    "dc": {"type": "integer", "description": "The DC rolled against; absent when none was given."},
    "success": {
        "type": "boolean",
        "description": "Whether the total met the DC; absent when no DC was given.",
    },
}
CONDITION = {
    "type": "string",
    "enum": rules.CONDITIONS,
    "maxLength": 16,
    "description": "Condition.",
}


CONCENTRATION_OUT = {
    "type": "object",
    "description": (
        "Present when the damaged creature was concentrating on a spell (SRD 5.1): spell (its "
        "name), kept, and save (its CON save against DC 10 or half the damage taken, whichever "
        "is higher; a monster's shown as its total against the DC), saves (one per dart, until "
        "one fails) for several hits at once, or reason (no save: dropped to 0 hit points, "
        "died). Not kept: the spell and its effect (Shield of Faith's +2 AC, Bless on every "
        "target) ended."
    ),
}


# SRD 5.1 "Duration": what a turn passed on says of the spells whose time ran out.
SPELLS_ENDED_OUT = {
    "type": "array",
    "items": {"type": "object"},
    "description": (
        "Present when the turn that starts ends spells whose duration is over (Bless after 10 "
        "rounds, Shield of Faith after 100, as their caster's turn starts; one cast out of "
        "combat as round 11 or 101 starts): each {caster_id, caster_name, spell, spell_name, "
        "target_id and target_name, or target_ids and target_names, duration}, as spell_cast's "
        "concentration_ended says one. Its effect is gone from every target."
    ),
}


def tools() -> list[ToolSpec]:
    return campaign_tools(SYSTEM_ID, PHASES, initial_state, summary) + [
        ToolSpec(
            name="character_create",
            description=(
                "Create a player character from explicit ability scores or a template "
                f"({', '.join(sorted(rules.TEMPLATES))}). Players always control what they create."
            ),
            handler=character_create,
            write=True,
            public=public_part("character", character_view),
            roles=PLAYING_ROLES,
            phases=SETUP,
            params={
                "name": string("Character name.", 80, minLength=1),
                "template": {
                    "type": "string",
                    "enum": sorted(rules.TEMPLATES),
                    "maxLength": 16,
                    "description": "SRD-style class template.",
                },
                "abilities": ABILITY_SCORES,
                "level": integer("Character level.", 1, 20),
                "ac": integer("Armor class.", 1, 30),
                "max_hp": integer("Maximum hit points (default from template and CON).", 1, 999),
                "speed": integer("Speed in feet.", 0, 120),
                "save_proficiencies": {
                    **string_list("Proficient saving throws.", 6, 3),
                    "items": {"type": "string", "enum": rules.ABILITIES, "maxLength": 3},
                },
                "skill_proficiencies": {
                    **string_list("Proficient skills.", 18, 20),
                    "items": {"type": "string", "enum": sorted(rules.SKILLS), "maxLength": 20},
                },
                "skill_expertise": {
                    **string_list(
                        "Skills whose proficiency bonus doubles (Expertise: a rogue's two "
                        "proficient skills, four from 6th level; default the template's).",
                        4,
                        20,
                    ),
                    "items": {"type": "string", "enum": sorted(rules.SKILLS), "maxLength": 20},
                },
                "resistances": DAMAGE_TYPE_LIST,
                "vulnerabilities": DAMAGE_TYPE_LIST,
                "immunities": DAMAGE_TYPE_LIST,
                "attacks": {
                    "type": "array",
                    "maxItems": 8,
                    "items": ATTACK_ENTRY,
                    "description": "Attacks; default from the template.",
                },
                "controller": principal("Controlling principal (GM only; players get themselves)."),
                "gm_notes": string("Private GM notes (GM only).", 2000, prose=True),
            },
            required=("name",),
            output=CHARACTER_OUT,
        ),
        ToolSpec(
            name="character_get",
            description="Read a character or monster; players never see monster HP or GM notes.",
            handler=character_get,
            write=False,
            roles=ALL_ROLES,
            phases=None,
            params={"character_id": CHARACTER_ID},
            required=("character_id",),
            output=CHARACTER_GET_OUT,
        ),
        ToolSpec(
            name="monster_spawn",
            description=(
                "Add a monster from the shipped SRD-style list: "
                f"{', '.join(sorted(rules.monsters()))} (GM only)."
            ),
            handler=monster_spawn,
            write=True,
            public=public_part("character", character_view),
            roles=GM_ROLES,
            phases=IN_PLAY,
            params={
                "monster_key": {
                    "type": "string",
                    "enum": sorted(rules.monsters()),
                    "maxLength": 40,
                    "description": "Stat block key.",
                },
                "name": string("Display name (default the stat block's).", 80, minLength=1),
                "gm_notes": string("Private GM notes.", 2000, prose=True),
            },
            required=("monster_key",),
            output=CHARACTER_OUT,
        ),
        ToolSpec(
            name="ability_check",
            description=(
                "d20 + ability modifier (+ proficiency for a proficient skill) vs DC; poisoned "
                "or frightened gives disadvantage (disadvantage_reasons says why); Bless adds "
                "nothing to a check; refused for "
                "an unconscious or dead creature. With no DC (the GM compares the total, e.g. "
                "Stealth with the watchers' Perception) the result has the roll and total, no "
                "dc or success."
            ),
            handler=ability_check,
            write=True,
            public=_check_public,
            roles=PLAYING_ROLES,
            phases=IN_PLAY,
            params={
                "character_id": CHARACTER_ID,
                "ability": ABILITY,
                "skill": {
                    "type": "string",
                    "enum": sorted(rules.SKILLS),
                    "maxLength": 20,
                    "description": "Skill; sets the ability.",
                },
                "dc": integer("Difficulty class; none: the roll and total only.", 1, 40),
                "bonus": integer("Situational bonus or penalty.", -20, 20),
                **ROLL_FLAGS,
            },
            required=("character_id",),
            output=ABILITY_CHECK_OUT,
        ),
        ToolSpec(
            name="saving_throw",
            description=(
                "d20 + ability modifier (+ proficiency if proficient in the save) vs DC; a "
                "paralyzed, petrified, stunned or unconscious creature fails STR and DEX saves, "
                "a restrained one has disadvantage on DEX saves (disadvantage_reasons says why). "
                "A blessed creature adds 1d4 (bless: {roll}, in the total; a monster's shown as "
                "its total alone)."
            ),
            handler=saving_throw,
            write=True,
            public=_check_public,
            roles=PLAYING_ROLES,
            phases=IN_PLAY,
            params={
                "character_id": CHARACTER_ID,
                "ability": ABILITY,
                "dc": integer("Difficulty class.", 1, 40),
                "bonus": integer("Situational bonus or penalty.", -20, 20),
                **ROLL_FLAGS,
            },
            required=("ability", "character_id", "dc"),
            output=CHECK_OUT,
        ),
        ToolSpec(
            name="attack",
            description=(
                "Attack roll vs AC (natural 20 hits and crits with doubled dice, natural 1 "
                "misses), then damage with resistances and HP effects. Uses the action in combat "
                "(a fighter's Extra Attack: 2 attacks per action from 5th level, 3 from 11th, 4 "
                "at 20th; a rogue's Sneak Attack adds 1d6 per two levels once per turn, with a "
                "finesse or ranged weapon and advantage or an able ally within 5 ft of the "
                f"target); a finesse weapon ({', '.join(sorted(rules.FINESSE_WEAPONS))}) "
                "attacks and deals damage with the higher of STR and DEX; "
                "on the grid the target must be within the attack's reach (5 ft, diagonals 5 ft) "
                "or range (disadvantage at long range or with a foe within 5 ft); Pack Tactics "
                "(wolf, giant rat) gives advantage with an able ally within 5 ft of the target. "
                "A wolf's bite that hits also knocks the target prone unless it makes a DC 11 "
                "STR save (on_hit). How far a hidden monster is (range.distance_ft, or a "
                "refusal's feet) is said to the GM alone. The target's AC includes Shield of "
                "Faith's +2 while it lasts; a blessed attacker adds 1d4 (to_hit.bless: {roll}, in "
                "the total; a monster's shown as its total alone). A hit on a concentrating "
                "creature calls for its concentration save (damage.effect.concentration, as "
                "damage_apply's)."
            ),
            handler=attack,
            write=True,
            public=_attack_public,
            roles=PLAYING_ROLES,
            phases=IN_PLAY,
            params={
                "attacker_id": CHARACTER_ID,
                "target_id": CHARACTER_ID,
                "attack_name": string(
                    "Attack to use (default the first); a player character can also make an "
                    "Unarmed Strike (1 + STR bludgeoning).",
                    60,
                ),
                "as_reaction": boolean(
                    "Use the reaction instead of the action; an opportunity attack the last "
                    "move provoked is a melee attack and strikes from the square the target "
                    "left (default: the first attack that reaches, a player character's "
                    "Unarmed Strike when none listed does)."
                ),
                **ROLL_FLAGS,
            },
            required=("attacker_id", "target_id"),
            output={
                "hit": {"type": "boolean"},
                "critical": {"type": "boolean"},
                "attacker_name": {"type": "string"},
                "attacker_kind": {"type": "string", "enum": ["pc", "monster"]},
                "target_name": {"type": "string"},
                "opportunity_attack": {
                    "type": "boolean",
                    "description": "Present (true) when this was an opportunity attack the "
                    "last move provoked.",
                },
                "target_hidden": {
                    "type": "boolean",
                    "description": "Present (true) when the target was a hidden monster at the "
                    "attack: range.distance_ft and long range are the GM's.",
                },
                "random_stream_receipt": RANDOM_RECEIPT_SCHEMA,
            },
        ),
        ToolSpec(
            name="damage_apply",
            description=(
                "Apply damage: immunity 0, resistance halves, vulnerability doubles, temp HP "
                "first; 0 HP makes a PC unconscious and dying, a monster dead (a zombie's Undead "
                "Fortitude CON save may keep it at 1 HP) (GM only). A concentrating creature "
                "makes a CON save, DC 10 or half the damage taken, whichever is higher, or its "
                "spell ends (concentration); at 0 HP it ends with no save."
            ),
            handler=damage_apply,
            write=True,
            public=_damage_public,
            roles=GM_ROLES,
            phases=IN_PLAY,
            destructive=True,
            params={
                "target_id": CHARACTER_ID,
                "amount": integer("Damage before adjustments.", 0, 10000),
                "damage_type": {
                    "type": "string",
                    "enum": rules.DAMAGE_TYPES,
                    "maxLength": 16,
                    "description": "Damage type.",
                },
                "critical": boolean("A critical hit (two death-save failures at 0 HP)."),
            },
            required=("amount", "target_id"),
            output={
                "adjusted": {"type": "integer"},
                "hp_after": {"type": "object"},
                "concentration": CONCENTRATION_OUT,
            },
        ),
        ToolSpec(
            name="heal",
            description=(
                "Restore HP up to the maximum; revives from 0 HP. Players: a potion of healing "
                f"({POTION_OF_HEALING}, rolled here; give no amount) given by a character they "
                "control, within 5 ft; in combat only on that character's turn, using its "
                "action. The GM heals any amount at any time. Refused for the dead and at full "
                "HP."
            ),
            handler=heal,
            write=True,
            public=_heal_public,
            roles=PLAYING_ROLES,
            phases=IN_PLAY,
            params={
                "target_id": CHARACTER_ID,
                "amount": integer(
                    "Hit points restored (GM only; without it a potion is rolled).", 1, 10000
                ),
                "healer_id": identifier(
                    "Character giving the potion (players: default their character; a GM "
                    "naming one spends its action)."
                ),
            },
            required=("target_id",),
            output={
                "target_id": {"type": "string"},
                "target_name": {"type": "string"},
                "source": {"type": "string"},
            },
        ),
        ToolSpec(
            name="temp_hp_grant",
            description=(
                "Grant temporary hit points (GM, or the character's controller): they do not "
                "stack, so the higher of the current and the new amount is kept; damage spends "
                "them before hit points. At 0 HP they do not wake the character."
            ),
            handler=temp_hp_grant,
            write=True,
            public=_temp_hp_public,
            roles=PLAYING_ROLES,
            phases=IN_PLAY,
            params={
                "target_id": CHARACTER_ID,
                "amount": integer("Temporary hit points granted.", 1, 999),
            },
            required=("amount", "target_id"),
            output={
                "target_id": {"type": "string"},
                "target_name": {"type": "string"},
                "temp_hp_after": {
                    "type": "integer",
                    "description": "Temporary hit points now (not shown for a monster publicly).",
                },
                "replaced": {
                    "type": "boolean",
                    "description": "The new amount replaced a lower one (false: kept the old).",
                },
            },
        ),
        ToolSpec(
            name="spell_cast",
            description=(
                "A caster casts a spell with a spell slot of the spell's level or higher, or a "
                "cantrip with none (no slot_level). A "
                "cleric's healing: Cure Wounds (1d8 + WIS modifier per slot level, touch, the "
                "action) or Healing Word (1d4 + WIS modifier per slot level, 60 ft, a bonus "
                "action); a dying target comes to. A wizard's Magic Missile (120 ft, the "
                "action): three darts of 1d4+1 force damage, one more per slot level above 1st, "
                "all at the target, never missing; damage applied as damage_apply applies it. "
                "Cantrips, the action, their die one more at caster levels 5, 11 and 17: a "
                "wizard's Fire Bolt (120 ft), a ranged spell attack (d20 + proficiency + INT "
                "modifier against AC) made as attack makes one, 1d10 fire on a hit (to_hit, "
                "hit, critical, damage as attack's); a cleric's Sacred Flame (60 ft), a DEX "
                "save (save) against 8 + proficiency + WIS modifier or 1d8 radiant (roll, "
                "damage), no cover modelled. A cleric's Shield of Faith (60 ft, a bonus "
                "action, concentration up to 10 minutes): a creature of the caster's choice, "
                "the caster too, gains +2 AC (ac_bonus, ac_before, ac_after; a monster's AC is "
                "the GM's), which every attack roll and read sees while it lasts. A cleric's "
                "Bless (30 ft, the action, concentration up to 1 minute): up to 3 creatures of "
                "the caster's choice in range (target_ids; the caster may be one), one more per "
                "slot level above 1st, each add 1d4 to every attack roll and saving throw (death "
                "saves too, not ability checks) while it lasts; the answer names them "
                "(target_ids, target_names; target_id the first). A caster "
                "concentrates on one spell at a time: another concentration spell ends the "
                "first (concentration_ended), and so do failing a concentration save when "
                "damaged (DC 10 or half the damage), dropping to 0 HP, dying or being "
                "incapacitated (condition_add); its effect goes with it, from every target. The "
                "caster may end it at will with end_concentration. "
                "The slot is spent and the effect rolled here. In combat only on the caster's "
                "turn, and a spell cast with a bonus action (Healing Word) allows no other spell "
                "that turn but a cantrip with a casting time of 1 action: after Healing Word or "
                "Shield of Faith no "
                "Cure Wounds or Magic Missile but Sacred Flame, after a levelled spell no "
                "Healing Word or Shield of Faith (outside "
                "combat there are no turns to limit). Refused with no slot of that level left, "
                "for a caster without the spell, for the dead (any of Bless's targets), for more "
                "targets than the slot allows, for healing at full HP, and for "
                "Cure Wounds or Healing Word on undead or constructs (no effect, SRD). Magic "
                "Missile, Sacred Flame and Healing Word target a creature the caster can see: "
                "refused on an invisible one, a hidden foe (a hidden ally stays in sight) or "
                "anyone while the caster is blinded; Fire Bolt rolls at disadvantage instead and "
                "Cure Wounds touches. A refused cast spends nothing. Players cast for their own "
                "character; the GM for any."
            ),
            handler=spell_cast,
            write=True,
            public=_spell_public,
            roles=PLAYING_ROLES,
            phases=IN_PLAY,
            params={
                "caster_id": CHARACTER_ID,
                "target_id": identifier(
                    "The one creature the spell targets, e.g. pc-1 or mon-2 (or give target_ids)."
                ),
                "target_ids": {
                    "type": "array",
                    "items": CHARACTER_ID,
                    "minItems": 1,
                    "maxItems": 11,
                    "uniqueItems": True,
                    "description": (
                        "Instead of target_id, for Bless: the distinct creatures it targets, the "
                        "caster may be one; up to 3 with a level 1 slot, one more per slot level "
                        "above 1st. Any other spell takes one."
                    ),
                },
                "spell": {
                    "type": "string",
                    "enum": sorted(rules.SPELLS),
                    "maxLength": 20,
                    "description": (
                        "The spell: bless, cure_wounds, healing_word, magic_missile, "
                        "shield_of_faith, or a cantrip: fire_bolt or sacred_flame."
                    ),
                },
                "slot_level": integer(
                    "Spell slot level (default the spell's level); none for a cantrip.", 1, 9
                ),
                "end_concentration": boolean(
                    "Instead of casting: the caster stops concentrating on this spell on "
                    "target_id (free, at any time, out of its turn too; nothing spent); Bless "
                    "is named by any of its targets (target_id or target_ids) and ends on all."
                ),
            },
            required=("caster_id", "spell"),
            output={
                "caster_name": {"type": "string"},
                "target_id": {
                    "type": "string",
                    "description": "The target; for Bless the first of target_ids.",
                },
                "target_name": {"type": "string"},
                "target_ids": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Bless: every creature it blessed, target_names their names.",
                },
                "target_names": {"type": "array", "items": {"type": "string"}},
                "dice": {
                    "type": "string",
                    "description": "Bless: the die each target adds to its attack rolls and "
                    "saving throws while it lasts (1d4).",
                },
                "slot_level": {"type": "integer", "description": "0 for a cantrip."},
                "slots_left": {
                    "type": "integer",
                    "description": "Spell slots of that level the caster has left (none for a "
                    "cantrip).",
                },
                "roll": {
                    "type": "object",
                    "description": "The healing roll, a damage spell's (every dart's) damage, "
                    "or a save spell's damage on a failed save. A spell that draws dice also "
                    "answers with random_stream_receipt, as attack does; Shield of Faith rolls "
                    "nothing and has none.",
                },
                "darts": {"type": "integer", "description": "A damage spell's darts."},
                "concentration_ended": {
                    "type": "object",
                    "description": "Present when this concentration spell ended the caster's "
                    "last one, or when end_concentration ended it: spell, spell_name, target_id "
                    "and target_name, or Bless's target_ids and target_names (its effect is gone "
                    "from each).",
                },
                "ac_bonus": {
                    "type": "integer",
                    "description": "Shield of Faith: the AC it adds while it lasts; ac_before "
                    "and ac_after the target's AC (a monster's shown to the GM alone).",
                },
                "to_hit": {
                    "type": "object",
                    "description": "An attack spell's attack roll, as attack's (bless when the "
                    "caster is blessed).",
                },
                "target_hidden": {
                    "type": "boolean",
                    "description": "An attack spell's, as attack's.",
                },
                "save": {
                    "type": "object",
                    "description": "The target's saving throw against a save spell (bless when "
                    "the target is blessed; a monster's shown as its total against the DC).",
                },
                "damage": {
                    "type": ["object", "null"],
                    "description": "A damage or save spell's effect, as damage_apply's; an "
                    "attack spell's damage as attack's (null on a miss); a monster's hit points "
                    "not shown to players; concentration: the target's concentration save, as "
                    "damage_apply's.",
                },
            },
        ),
        ToolSpec(
            name="long_rest",
            description=(
                "The party (or one named character) finishes a long rest: hit points to the "
                "maximum, temporary hit points gone, every spell slot back, and spent Hit Dice "
                "up to half the character's total (at least one); a concentration spell it "
                "held ends (concentration_ended: its name; its effect goes from every target). A "
                "character at 0 HP or dead gains nothing (skipped). Outside combat only (GM "
                "only)."
            ),
            handler=long_rest,
            write=True,
            public=nothing_hidden,
            roles=GM_ROLES,
            phases=frozenset({"play"}),
            params={
                "character_id": identifier(
                    "Optional: the one character who rests (default every player character)."
                ),
            },
            output={
                "rested": {
                    "type": "array",
                    "description": "Each character who rested: hit points before and after, "
                    "spell slots and Hit Dice, and concentration_ended when it held a spell.",
                    "items": {"type": "object"},
                },
                "skipped": {
                    "type": "array",
                    "description": "Characters who gained nothing, with why (dead, 0 HP).",
                    "items": {"type": "object"},
                },
            },
        ),
        ToolSpec(
            name="short_rest",
            description=(
                "A player character finishes a short rest, spending Hit Dice (its level in "
                "dice of its class's hit die; a long rest gives half back): each rolls the hit "
                "die + CON modifier (never below 0 a die), rolled here, and heals up to the "
                "maximum; a concentration spell it held ends (concentration_ended: its name; "
                "its effect goes from every target). A stable character at 0 HP may rest and "
                "comes to if healed (revived: true). Refused at full HP, while dying (0 HP, not "
                "stable) or dead, and with fewer Hit Dice left than asked. Outside combat only. "
                "Players rest their own character; the GM any."
            ),
            handler=short_rest,
            write=True,
            public=nothing_hidden,
            roles=PLAYING_ROLES,
            phases=frozenset({"play"}),
            params={
                "character_id": CHARACTER_ID,
                "dice": integer("Hit Dice to spend (at least 1).", 1, 20),
            },
            required=("character_id", "dice"),
            output={
                "character_name": {"type": "string"},
                "dice_spent": {"type": "integer"},
                "roll": {"type": "object", "description": "The Hit Dice roll (dice + CON)."},
                "healed": {"type": "integer"},
                "hp_after": {"type": "integer"},
                "hp_max": {"type": "integer"},
                "hit_dice": {
                    "type": "object",
                    "description": "Hit Dice left: die, current and max.",
                },
                "revived": {
                    "type": "boolean",
                    "description": "Present (true) when a stable character at 0 HP came to.",
                },
                "concentration_ended": {
                    "type": "string",
                    "description": "Present when the rester held a concentration spell: its "
                    "name (the rest outlasts it).",
                },
                "random_stream_receipt": RANDOM_RECEIPT_SCHEMA,
            },
        ),
        ToolSpec(
            name="condition_add",
            description=(
                "Add an SRD condition to a character or monster (GM only); unconscious also "
                "makes it prone, which stays when it wakes up. Incapacitated, paralyzed, "
                "petrified, stunned or unconscious ends its concentration (concentration: "
                "spell, kept false, reason)."
            ),
            handler=condition_add,
            write=True,
            public=nothing_hidden,
            roles=GM_ROLES,
            phases=IN_PLAY,
            params={
                "target_id": CHARACTER_ID,
                "condition": CONDITION,
            },
            required=("condition", "target_id"),
            output={
                "conditions": {"type": "array", "items": {"type": "string"}},
                "concentration": {
                    "type": "object",
                    "description": "Present when the condition ended the creature's "
                    "concentration: spell, kept (false), reason.",
                },
            },
        ),
        ToolSpec(
            name="condition_remove",
            description="Remove a condition from a character or monster (GM only).",
            handler=condition_remove,
            write=True,
            public=nothing_hidden,
            roles=GM_ROLES,
            phases=IN_PLAY,
            params={
                "target_id": CHARACTER_ID,
                "condition": CONDITION,
            },
            required=("condition", "target_id"),
            output={"conditions": {"type": "array", "items": {"type": "string"}}},
        ),
        ToolSpec(
            name="stand_up",
            description=(
                "Stand up from prone: in combat only on the character's own turn, costing half "
                "its speed in movement; outside combat free. Not at 0 HP, nor with speed 0. "
                "A hidden monster's movement_left is shown to the GM alone (hidden: true)."
            ),
            handler=stand_up,
            write=True,
            public=_stand_up_public,
            roles=PLAYING_ROLES,
            phases=IN_PLAY,
            params={"character_id": CHARACTER_ID},
            required=("character_id",),
            output={
                "conditions": {"type": "array", "items": {"type": "string"}},
                "movement_cost": {"type": "integer"},
                "hidden": {
                    "type": "boolean",
                    "description": "Present (true) when a hidden monster stood; all but the GM "
                    "see no movement_left.",
                },
            },
        ),
        ToolSpec(
            name="death_save",
            description=(
                "Death saving throw at 0 HP: 10+ succeeds, 20 revives with 1 HP, 1 counts two "
                "failures (the d20's own 1 and 20); a blessed character adds 1d4 (bless, total). "
                "Three successes stabilise, three failures kill. In combat once per "
                "turn, on the character's own turn; one who dies then passes the turn. Outside "
                "combat only the GM calls for one."
            ),
            handler=death_save,
            write=True,
            public=nothing_hidden,
            roles=PLAYING_ROLES,
            phases=IN_PLAY,
            params={"character_id": CHARACTER_ID},
            required=("character_id",),
            output={
                "outcome": {"type": "string"},
                "natural": {"type": "integer"},
                "bless": {
                    "type": "object",
                    "description": "Present while Bless is on the character: roll, its 1d4.",
                },
                "total": {
                    "type": "integer",
                    "description": "With bless: natural plus its roll, against 10.",
                },
                "current": {
                    "type": "string",
                    "description": "Present when the save killed and the turn passed: whose "
                    "turn it is now.",
                },
                "round": {
                    "type": "integer",
                    "description": "With current: the round of that turn.",
                },
                "spells_ended": SPELLS_ENDED_OUT,
                "random_stream_receipt": RANDOM_RECEIPT_SCHEMA,
            },
        ),
        ToolSpec(
            name="combat_start",
            description=(
                "Start combat: initiative d20 + DEX modifier (a DEX check: with disadvantage "
                "when poisoned or frightened), ordered by initiative, then DEX, then id; the "
                "phase becomes combat (GM only). Each order entry says how its initiative was "
                "rolled."
            ),
            handler=combat_start,
            write=True,
            public=_combat_public,
            roles=GM_ROLES,
            phases=frozenset({"play"}),
            params={
                "participant_ids": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": MAX_COMBATANTS,
                    "uniqueItems": True,
                    "items": CHARACTER_ID,
                    "description": "Characters and monsters taking part.",
                }
            },
            required=("participant_ids",),
            output={
                "combat": COMBAT_STATUS_SCHEMA,
                "random_stream_receipt": RANDOM_RECEIPT_SCHEMA,
            },
        ),
        ToolSpec(
            name="combat_status",
            description=(
                "Initiative order, round, current turn, action budgets (with dashed, "
                "disengaged or dodging for the actions taken), positions, the Help actions each "
                "combatant holds (helped_by), how each initiative was rolled (a monster's die "
                "and modifier to the GM alone) and the grid's width and height. A hidden "
                "monster's entry says hidden; its position is shown to the GM alone."
            ),
            handler=combat_status,
            write=False,
            roles=ALL_ROLES,
            phases=COMBAT,
            output={"combat": COMBAT_STATUS_SCHEMA},
        ),
        ToolSpec(
            name="combat_move",
            description=(
                "Move the current combatant on the grid (5 ft per square, diagonal 5 ft) along "
                "the cheapest path: hostile creatures' squares cannot be crossed, other "
                "creatures' cost double and cannot be stopped in; a dead one's square is free. "
                "A prone combatant crawls: each foot costs 2 ft of movement (stand_up first "
                "to move at full speed). Leaving a hostile creature's reach (a player "
                "character's is at least its Unarmed Strike's 5 ft) names it in "
                "opportunity_attacks when it could take its reaction (a hidden monster, "
                "hidden: true, to the GM alone; combat_status lists the GM the open ones). A "
                "hidden mover stays "
                "hidden (hidden: true); a hidden monster's move shows only that it moved, "
                "to all but the GM. A player character knows nothing of a hidden monster's "
                "square: its way is planned as if the square were free, and walking it, it "
                "stumbles on the monster, stops on the square before (to), pays only for the "
                "squares walked and finds it (stopped_by; it is hidden no more)."
            ),
            handler=combat_move,
            write=True,
            public=_move_view,
            roles=PLAYING_ROLES,
            phases=COMBAT,
            params={
                "character_id": CHARACTER_ID,
                "x": integer("Column.", 0, 99),
                "y": integer("Row.", 0, 99),
            },
            required=("character_id", "x", "y"),
            output={
                "hidden": {
                    "type": "boolean",
                    "description": "Present (true) when the mover is hidden; for a hidden "
                    "monster all but the GM see only character_id and this.",
                },
                "to": {
                    "type": "array",
                    "description": "The square the mover ended on: the one asked for, or the "
                    "one before a hidden monster it stumbled on (stopped_by).",
                    "items": {"type": "integer"},
                },
                "feet": {"type": "integer", "description": "Distance covered."},
                "crawled": {"type": "boolean", "description": "Crawled, being prone."},
                "movement_cost": {
                    "type": "integer",
                    "description": "Movement spent (twice the distance when crawling).",
                },
                "stopped_by": {
                    "type": "object",
                    "description": "Present when the way ran into a hidden monster the mover "
                    "did not know was there: the move stopped before it (to) and it is found, "
                    "hidden no more.",
                    "properties": {
                        "id": {"type": "string"},
                        "name": {"type": "string"},
                        "at": {
                            "type": "array",
                            "description": "Its square.",
                            "items": {"type": "integer"},
                        },
                    },
                    "required": ["id", "name", "at"],
                },
                "movement_left": {"type": "integer"},
                "opportunity_attacks": {
                    "type": "array",
                    "description": "Present when the move left hostile creatures' reach: those "
                    "that could make an opportunity attack (attacker_id, attacker_name); nothing "
                    "is rolled, the GM calls each as an attack with as_reaction.",
                    "items": {"type": "object"},
                },
            },
        ),
        ToolSpec(
            name="combat_action",
            description=(
                "Take the Dash, Disengage, Dodge, Help or Hide action on the combatant's own "
                "turn, spending its action. Dash: extra movement equal to its speed this turn. "
                "Disengage: its movement provokes no opportunity attacks this turn. Dodge: until "
                "its next turn starts, attacks against it have disadvantage when it can see the "
                "attacker and its DEX saves have advantage (not while incapacitated or at speed "
                "0). Help (ally_id, target_id): the ally's (a combatant's) next attack on that "
                "foe within 5 ft "
                "of the helper, or without target_id its next ability check, has advantage, "
                "until the helper's next turn. Hide: a DEX (Stealth) check against the foes' "
                "best passive Perception (dc: a monster's is shown to the GM alone; the "
                "GM judges whether there is cover); hidden, it attacks with advantage, is "
                "attacked with disadvantage and provokes no opportunity attacks, until its own "
                "attack or shove reveals it; a hidden monster's square is shown to the GM alone "
                "(combat_status, combat_render, combat_move). Shove (target_id, shove): one "
                "attack of the Attack "
                "action against a creature no more than one size larger, Athletics against "
                "the target's Athletics or Acrobatics; a win knocks "
                "it prone or pushes it 5 ft (to: the square, left out for a hidden monster but "
                "for the GM). With bonus_action, a rogue's Cunning Action or a "
                "goblin's Nimble Escape takes it as a bonus action instead. Every result names "
                "the taker's kind (character_kind: pc or monster), a hider's included."
            ),
            handler=combat_action,
            write=True,
            public=_combat_action_public,
            roles=PLAYING_ROLES,
            phases=COMBAT,
            params={
                "character_id": CHARACTER_ID,
                "action": {
                    "type": "string",
                    "enum": list(COMBAT_ACTIONS),
                    "maxLength": 9,
                    "description": "The action taken: dash, disengage, dodge, help, hide or shove.",
                },
                "ally_id": identifier("Help only: the ally aided, a combatant in this fight."),
                "target_id": identifier(
                    "Help: a foe within 5 ft of the helper; the ally's next attack on it has "
                    "advantage (without it, the ally's next ability check has). Shove: the "
                    "creature shoved, within 5 ft."
                ),
                "shove": {
                    "type": "string",
                    "enum": ["prone", "push"],
                    "maxLength": 5,
                    "description": "Shove only: knock the target prone (default) or push it "
                    "5 ft away.",
                },
                "bonus_action": boolean(
                    "Take it as a bonus action, keeping the action: a rogue's Cunning Action "
                    "from 2nd level (dash, disengage, hide), a goblin's Nimble Escape "
                    "(disengage, hide)."
                ),
            },
            required=("action", "character_id"),
            output={
                "bonus_action": {"type": "boolean"},
                "hidden": {
                    "type": "boolean",
                    "description": "Hide: whether it is hidden now. Any other action of a "
                    "hidden monster: true, and its movement left is then the GM's alone.",
                },
                "to": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "description": "Shove that pushed: the target's new square (left out for "
                    "all but the GM when the target is a hidden monster).",
                },
                "target_hidden": {
                    "type": "boolean",
                    "description": "Shove: present when the target was a hidden monster.",
                },
                "dc": {
                    "type": ["integer", "null"],
                    "description": "Present for Hide: the best passive Perception it was "
                    "checked against (null: no foe able to notice it). A player character's is "
                    "a monster's, left out (and out of check) for all but the GM.",
                },
                "action": {"type": "string"},
                "character_name": {"type": "string"},
                "character_kind": {
                    "type": "string",
                    "enum": ["pc", "monster"],
                    "description": "The kind of the creature that took the action (for Hide, "
                    "the hider's: a monster hides against the party's passive Perception, a "
                    "player character against a monster's).",
                },
                "movement_gained": {
                    "type": "integer",
                    "description": "Present for Dash: the movement it added.",
                },
                "movement_left": {"type": "integer"},
            },
        ),
        ToolSpec(
            name="combat_end_turn",
            description=(
                "End the current turn; advances to the next living combatant and round. A "
                "character dying as its turn started ends it only after its death save. A "
                "concentration spell whose duration is over as the next turn starts ends "
                "(spells_ended)."
            ),
            handler=combat_end_turn,
            write=True,
            public=nothing_hidden,
            roles=PLAYING_ROLES,
            phases=COMBAT,
            params={
                "character_id": identifier(
                    "Optional: whose turn this ends; refused when another combatant's turn is "
                    "current (that turn has already ended)."
                ),
            },
            output={
                "current": {"type": "string"},
                "round": {"type": "integer"},
                "spells_ended": SPELLS_ENDED_OUT,
            },
        ),
        ToolSpec(
            name="combat_end",
            description="End combat and return to the play phase (GM only).",
            handler=combat_end,
            write=True,
            public=nothing_hidden,
            roles=GM_ROLES,
            phases=COMBAT,
            output={"rounds": {"type": "integer"}},
        ),
        ToolSpec(
            name="combat_render",
            description=(
                "The combat grid as an SVG image plus the same data as structure (tokens: id, "
                "name, kind, x, y, current, status). A hidden monster has no token but for the "
                "GM."
            ),
            handler=combat_render,
            write=False,
            roles=ALL_ROLES,
            phases=COMBAT,
            output={"grid": {"type": "object"}},
        ),
    ]
