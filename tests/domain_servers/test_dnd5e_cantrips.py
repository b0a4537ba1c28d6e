"""Cantrips (SRD 5.1) through `spell_cast`, cast with the action and no spell slot: a wizard's
Fire Bolt, a ranged spell attack (d20 + proficiency + INT modifier against AC, 1d10 fire on a
hit) made as `attack` makes one, and a cleric's Sacred Flame, a DEX save against 8 +
proficiency + WIS modifier or 1d8 radiant. Their die grows at 5th, 11th and 17th level. Dice
are forced, in the order the rules draw them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest

from domain_servers.common.random_stream import RandomStream
from domain_servers.dnd5e import rules
from domain_servers.dnd5e.tools import tools
from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game
from tests.domain_servers.test_dnd5e_magic_missile import _rewrite
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _char, _party, _refused
from tests.domain_servers.test_dnd5e_table_rules import _turn_of


def _dice(monkeypatch, *values: int) -> None:
    """The next dice the rules draw, in order; any more is an error."""
    rolls = iter(values)
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: next(rolls))


def _bolt(dnd: Game, ids: dict[str, str], target: str, **extra: Any) -> dict[str, Any]:
    return _cast(dnd, ids["wren"], ids[target], "fire_bolt", **extra)


def _flame(dnd: Game, ids: dict[str, str], target: str, **extra: Any) -> dict[str, Any]:
    return _cast(dnd, ids["ash"], ids[target], "sacred_flame", **extra)


def _slots(dnd: Game, char_id: str) -> dict[str, Any]:
    return _char(dnd, char_id)["spell_slots"]


# -- Fire Bolt ---------------------------------------------------------------------------------


def test_fire_bolt_hits_with_proficiency_and_int_and_spends_no_slot(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)  # Wren: INT 15 (+2), proficiency +2; Bram: AC 16, 12 HP
    _dice(monkeypatch, 12, 7)  # 12 + 4 = 16 hits AC 16; the d10 deals 7
    cast = _bolt(dnd, ids, "bram")
    cast.pop("receipt")
    cast.pop("random_stream_receipt", None)  # none: the dice are forced
    rolled = cast["damage"]
    assert rolled.pop("rolls")[0]["results"] == [7]
    assert cast == {
        "caster_id": ids["wren"],
        "caster_name": "Wren",
        "spell": "fire_bolt",
        "spell_name": "Fire Bolt",
        "slot_level": 0,
        "casting": "action",
        "source": "spell",
        "attacker_id": ids["wren"],
        "target_id": ids["bram"],
        "target_name": "Bram",
        "attack": "Fire Bolt",
        "to_hit": {
            "natural": 12,
            "rolls": [12],
            "mode": "normal",
            "bonus": 4,
            "total": 16,
            "target_ac": 16,
            "advantage_reasons": [],
            "disadvantage_reasons": [],
        },
        "hit": True,
        "critical": False,
        "damage": {
            "expression": "1d10",
            "total": 7,
            "detail": "1d10 [7] = 7 => 7",
            "damage_type": "fire",
            "effect": {
                "target_id": ids["bram"],
                "raw": 7,
                "damage_type": "fire",
                "adjusted": 7,
                "absorbed_by_temp_hp": 0,
                "hp_before": {"current": 12, "max": 12, "temp": 0},
                "hp_after": {"current": 5, "max": 12, "temp": 0},
                "dropped_to_zero": False,
                "death_save_failures_added": 0,
                "death_saves": {"successes": 0, "failures": 0},
                "dead": False,
            },
        },
    }
    assert _slots(dnd, ids["wren"]) == {"1": {"current": 2, "max": 2}}
    assert _char(dnd, ids["bram"])["hp"]["current"] == 5


def test_fire_bolt_misses_below_the_ac_and_deals_nothing(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _dice(monkeypatch, 11)  # 15 against AC 16: no damage die is rolled
    cast = _bolt(dnd, ids, "bram")
    assert (cast["to_hit"]["total"], cast["hit"], cast["damage"]) == (15, False, None)
    assert _char(dnd, ids["bram"])["hp"]["current"] == 12


def test_a_natural_20_doubles_fire_bolts_dice(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _dice(monkeypatch, 20, 3, 4)
    cast = _bolt(dnd, ids, "bram")
    assert (cast["critical"], cast["critical_reason"]) == (True, "natural 20")
    assert (cast["damage"]["total"], cast["damage"]["rolls"][0]["results"]) == (7, [3, 4])


def test_fire_bolts_die_grows_at_5th_level(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    made = dnd.write(
        "character_create", {"name": "Ola", "template": "wizard", "level": 5}, sub=PLAYER
    )
    _dice(monkeypatch, 15, 6, 5)  # proficiency +3 at 5th level: 15 + 5 = 20
    cast = _cast(dnd, made["character"]["id"], ids["bram"], "fire_bolt")
    assert (cast["to_hit"]["bonus"], cast["damage"]["expression"], cast["damage"]["total"]) == (
        5, "2d10", 11,
    )  # fmt: skip


def test_a_player_sees_fire_bolt_hit_a_monster_but_not_its_ac_or_hit_points(
    dnd: Game, monkeypatch
) -> None:
    ids = _party(dnd)  # the goblin: AC 15, 7 HP
    _dice(monkeypatch, 11, 2)
    cast = _bolt(dnd, ids, "goblin")
    assert "target_ac" not in cast["to_hit"]
    assert (cast["to_hit"]["total"], cast["hit"], cast["damage"]["total"]) == (15, True, 2)
    assert cast["damage"]["effect"] == {
        "target_id": ids["goblin"], "dropped_to_zero": False, "dead": False, "status": "wounded",
    }  # fmt: skip
    assert _char(dnd, ids["goblin"])["hp"]["current"] == 5


def test_the_public_view_of_a_gms_fire_bolt_hides_the_monsters_numbers(
    dnd: Game, monkeypatch
) -> None:
    ids = _party(dnd)
    _dice(monkeypatch, 11, 2)
    args = {
        "caster_id": ids["wren"],
        "target_id": ids["goblin"],
        "spell": "fire_bolt",
        "expected_revision": dnd.revision,
        "idempotency_key": "bolt",
    }
    full = dnd.call("spell_cast", args).structured_content
    assert (full["to_hit"]["target_ac"], full["damage"]["effect"]["hp_after"]["current"]) == (15, 5)
    shown = dnd.call("spell_cast", args, view="public").structured_content
    assert "target_ac" not in shown["to_hit"]
    assert shown["damage"]["effect"] == {
        "target_id": ids["goblin"], "dropped_to_zero": False, "dead": False, "status": "wounded",
    }  # fmt: skip


@pytest.mark.parametrize(("defence", "taken"), [("resistances", 4), ("vulnerabilities", 18)])
def test_fire_resistance_halves_and_vulnerability_doubles_fire_bolt(
    dnd: Game, monkeypatch, defence: str, taken: int
) -> None:
    ids = _party(dnd)
    scores = {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10}
    made = dnd.write(
        "character_create",
        {"name": "Cai", "abilities": scores, "max_hp": 30, "ac": 10, defence: ["fire"]},
        sub=OTHER,
    )
    _dice(monkeypatch, 10, 9)
    cast = _cast(dnd, ids["wren"], made["character"]["id"], "fire_bolt")
    effect = cast["damage"]["effect"]
    assert (effect["raw"], effect["adjusted"], effect["hp_after"]["current"]) == (
        9,
        taken,
        30 - taken,
    )


def test_fire_bolt_at_a_dying_character_is_a_failed_death_save(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 12})  # 0 HP, dying
    # Unconscious gives advantage, prone and beyond 5 ft disadvantage: one d20.
    _dice(monkeypatch, 12, 5)
    cast = _bolt(dnd, ids, "bram")
    to_hit = cast["to_hit"]
    assert (to_hit["mode"], to_hit["advantage_reasons"], to_hit["disadvantage_reasons"]) == (
        "normal", ["Bram is unconscious"], ["Bram is prone and more than 5 ft away"],
    )  # fmt: skip
    assert cast["hit"] is True
    effect = cast["damage"]["effect"]
    assert (effect["death_save_failures_added"], effect["death_saves"]) == (
        1, {"successes": 0, "failures": 1},
    )  # fmt: skip


def test_a_hidden_wizards_fire_bolt_has_advantage_and_gives_it_away(
    dnd: Game, monkeypatch, tmp_path: Path
) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["wren"], ids["goblin"]]})
    _turn_of(dnd, ids["wren"])
    _rewrite(
        dnd,
        tmp_path / "d.sqlite3",
        lambda s: s["combat"].update(
            hidden=[ids["wren"]], positions={ids["wren"]: [0, 0], ids["goblin"]: [6, 0]}
        ),
    )
    _dice(monkeypatch, 3, 18, 4)
    cast = _bolt(dnd, ids, "goblin")
    assert (cast["to_hit"]["mode"], cast["to_hit"]["advantage_reasons"]) == (
        "advantage", ["Wren is hidden"],
    )  # fmt: skip
    assert cast["range"] == {"distance_ft": 30, "kind": "ranged", "disadvantage": []}
    assert dnd.state()["combat"]["hidden"] == []


def test_in_combat_fire_bolt_takes_the_action_and_beside_a_foe_has_disadvantage(
    dnd: Game, monkeypatch, tmp_path: Path
) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["wren"], ids["goblin"]]})
    _turn_of(dnd, ids["wren"])
    _rewrite(
        dnd,
        tmp_path / "d.sqlite3",
        lambda s: s["combat"].update(positions={ids["wren"]: [0, 0], ids["goblin"]: [1, 0]}),
    )
    _dice(monkeypatch, 17, 4, 1)
    cast = _bolt(dnd, ids, "goblin")
    assert (cast["to_hit"]["natural"], cast["to_hit"]["disadvantage_reasons"]) == (
        4, ["hostile within 5 ft"],
    )  # fmt: skip
    budget = {e["id"]: e["budget"] for e in dnd.read("combat_status")["combat"]["order"]}
    assert (budget[ids["wren"]]["action"], budget[ids["wren"]]["bonus_action"]) == (0, 1)
    args = {"caster_id": ids["wren"], "target_id": ids["goblin"], "spell": "fire_bolt"}
    assert _refused(dnd, args)["message"] == "Wren has no action left this turn"
    assert _slots(dnd, ids["wren"]) == {"1": {"current": 2, "max": 2}}


@pytest.mark.parametrize(
    ("caster", "spell", "squares", "said"),
    [
        ("wren", "fire_bolt", 25, "Goblin is 125 ft away from Wren; Fire Bolt reaches 120 ft."),
        ("ash", "sacred_flame", 13, "Goblin is 65 ft away from Ash; Sacred Flame reaches 60 ft."),
    ],
)
def test_a_cantrip_reaches_its_range_and_no_further(
    dnd: Game, tmp_path: Path, caster: str, spell: str, squares: int, said: str
) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids[caster], ids["goblin"]]})
    _turn_of(dnd, ids[caster])

    def far_apart(state: dict[str, Any]) -> None:
        state["combat"]["grid"]["width"] = 40
        state["combat"]["positions"].update({ids[caster]: [0, 0], ids["goblin"]: [squares, 0]})

    _rewrite(dnd, tmp_path / "d.sqlite3", far_apart)
    args = {"caster_id": ids[caster], "target_id": ids["goblin"], "spell": spell}
    assert _refused(dnd, args, sub=GM)["message"] == f"{said} Move closer first."


# -- Sacred Flame ------------------------------------------------------------------------------


def test_sacred_flame_burns_a_goblin_that_fails_its_dex_save(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)  # Ash: WIS 15 (+2), proficiency +2: DC 12; the goblin: DEX +2, 7 HP
    _dice(monkeypatch, 9, 6)  # 9 + 2 = 11 fails; the d8 deals 6
    cast = _flame(dnd, ids, "goblin", sub=GM)
    cast.pop("receipt")
    cast.pop("random_stream_receipt", None)  # none: the dice are forced
    assert cast.pop("roll") | {"rolls": None} == {
        "expression": "1d8", "total": 6, "detail": "1d8 [6] = 6 => 6", "rolls": None,
    }  # fmt: skip
    assert cast == {
        "caster_id": ids["ash"],
        "caster_name": "Ash",
        "spell": "sacred_flame",
        "spell_name": "Sacred Flame",
        "slot_level": 0,
        "casting": "action",
        "source": "spell",
        "save": {
            "natural": 9,
            "rolls": [9],
            "mode": "normal",
            "ability": "dex",
            "ability_modifier": 2,
            "proficiency": 0,
            "bonus": 0,
            "total": 11,
            "dc": 12,
            "success": False,
            "character_id": ids["goblin"],
            "character_name": "Goblin",
            "character_kind": "monster",
            "kind": "save",
        },
        "damage": {
            "target_id": ids["goblin"],
            "raw": 6,
            "damage_type": "radiant",
            "adjusted": 6,
            "absorbed_by_temp_hp": 0,
            "hp_before": {"current": 7, "max": 7, "temp": 0},
            "hp_after": {"current": 1, "max": 7, "temp": 0},
            "dropped_to_zero": False,
            "death_save_failures_added": 0,
            "death_saves": {"successes": 0, "failures": 0},
            "dead": False,
        },
        "target_id": ids["goblin"],
        "target_name": "Goblin",
    }
    assert _slots(dnd, ids["ash"]) == {"1": {"current": 2, "max": 2}}


def test_a_player_sees_the_goblins_save_total_but_not_its_modifier_or_hit_points(
    dnd: Game, monkeypatch
) -> None:
    ids = _party(dnd)
    _dice(monkeypatch, 9, 6)
    cast = _flame(dnd, ids, "goblin")  # 7 -> 1 HP
    assert cast["save"] == {
        "mode": "normal", "ability": "dex", "bonus": 0, "total": 11, "dc": 12, "success": False,
        "character_id": ids["goblin"], "character_name": "Goblin", "character_kind": "monster",
        "kind": "save",
    }  # fmt: skip
    assert cast["damage"] == {
        "target_id": ids["goblin"], "dropped_to_zero": False, "dead": False, "status": "bloodied",
    }  # fmt: skip
    assert cast["roll"]["total"] == 6


def test_a_made_save_takes_no_damage(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _dice(monkeypatch, 10)  # 12 meets DC 12: no damage die is rolled
    cast = _flame(dnd, ids, "goblin")
    assert (cast["save"]["total"], cast["save"]["success"]) == (12, True)
    assert ("roll" in cast, "damage" in cast) == (False, False)
    assert _char(dnd, ids["goblin"])["hp"]["current"] == 7


def test_sacred_flames_die_grows_and_its_dc_with_the_clerics_level(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd, level=11)  # proficiency +4: DC 14; three d8s
    _dice(monkeypatch, 11, 1, 2, 3)
    cast = _flame(dnd, ids, "bram")  # Bram: DEX 13 (+1), 12 HP
    assert (cast["save"]["total"], cast["save"]["dc"], cast["save"]["success"]) == (12, 14, False)
    assert (cast["roll"]["expression"], cast["roll"]["total"]) == ("3d8", 6)


def test_sacred_flame_fells_a_zombie_past_its_undead_fortitude(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    zombie = dnd.write("monster_spawn", {"monster_key": "zombie"})["character"]["id"]
    dnd.write("damage_apply", {"target_id": zombie, "amount": 19})  # 22 -> 3
    _dice(monkeypatch, 5, 8)  # DEX -2: 3 fails; 8 radiant, and radiant allows no Fortitude
    damage = _cast(dnd, ids["ash"], zombie, "sacred_flame", sub=GM)["damage"]
    assert (damage["dead"], "undead_fortitude" in damage) == (True, False)


def test_fire_bolt_on_a_zombie_meets_its_undead_fortitude(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    zombie = dnd.write("monster_spawn", {"monster_key": "zombie"})["character"]["id"]
    dnd.write("damage_apply", {"target_id": zombie, "amount": 19})  # 22 -> 3
    _dice(monkeypatch, 10, 5, 20)  # hits AC 8, 5 fire: CON save 20 + 3 against DC 10 holds
    damage = _cast(dnd, ids["wren"], zombie, "fire_bolt", sub=GM)["damage"]
    assert damage["effect"]["undead_fortitude"]["success"] is True
    assert damage["effect"]["hp_after"]["current"] == 1


def test_radiant_immunity_takes_nothing_from_sacred_flame(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    scores = {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10}
    made = dnd.write(
        "character_create",
        {"name": "Cai", "abilities": scores, "max_hp": 20, "immunities": ["radiant"]},
        sub=OTHER,
    )
    _dice(monkeypatch, 1, 8)
    damage = _cast(dnd, ids["ash"], made["character"]["id"], "sacred_flame")["damage"]
    assert (damage["raw"], damage["adjusted"], damage["hp_after"]["current"]) == (8, 0, 20)


def test_a_dying_character_fails_the_save_and_a_death_save(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 12})  # 0 HP, dying
    _dice(monkeypatch, 20, 3)
    cast = _flame(dnd, ids, "bram")
    assert (cast["save"]["success"], cast["save"]["automatic_failure"]) == (
        False, "Bram is unconscious",
    )  # fmt: skip
    assert (cast["damage"]["death_save_failures_added"], cast["damage"]["dead"]) == (1, False)
    assert _char(dnd, ids["bram"])["death_saves"] == {"successes": 0, "failures": 1}


def test_a_dodging_target_makes_its_dex_save_with_advantage(
    dnd: Game, monkeypatch, tmp_path: Path
) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["goblin"]]})
    _turn_of(dnd, ids["goblin"])
    dnd.write("combat_action", {"character_id": ids["goblin"], "action": "dodge"})
    _turn_of(dnd, ids["ash"])
    _dice(monkeypatch, 2, 15)
    cast = _flame(dnd, ids, "goblin", sub=GM)
    assert (cast["save"]["mode"], cast["save"]["advantage_reasons"]) == (
        "advantage", ["Goblin is dodging"],
    )  # fmt: skip
    assert cast["save"]["success"] is True


# -- both ---------------------------------------------------------------------------------------


def test_cantrips_are_refused_a_slot_a_wrong_caster_and_the_dead(dnd: Game) -> None:
    ids = _party(dnd)
    bolt = {"caster_id": ids["wren"], "target_id": ids["goblin"], "spell": "fire_bolt"}
    flame = {"caster_id": ids["ash"], "target_id": ids["goblin"], "spell": "sacred_flame"}
    assert _refused(dnd, {**bolt, "slot_level": 1})["message"] == (
        "Fire Bolt is a cantrip, cast without a spell slot: leave out slot_level"
    )
    assert _refused(dnd, {**bolt, "caster_id": ids["ash"]})["message"] == (
        "Ash cannot cast Fire Bolt: it is not a cleric spell"
    )
    assert _refused(dnd, {**flame, "caster_id": ids["wren"]})["message"] == (
        "Wren cannot cast Sacred Flame: it is not a wizard spell"
    )
    assert _refused(dnd, {**flame, "target_id": ids["ash"]})["message"] == (
        "Ash cannot target themselves with Sacred Flame"
    )
    dnd.write("damage_apply", {"target_id": ids["goblin"], "amount": 50})
    assert _refused(dnd, bolt)["message"] == "Goblin is dead and cannot take damage"


def test_cantrips_are_cast_as_often_as_the_turns_allow(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _dice(monkeypatch, 1, 20, 1, 20, 1, 20)  # a miss and a made save, three times
    for _ in range(3):
        _bolt(dnd, ids, "bram")
        _flame(dnd, ids, "bram")
    assert (_slots(dnd, ids["wren"]), _slots(dnd, ids["ash"])) == (
        {"1": {"current": 2, "max": 2}}, {"1": {"current": 2, "max": 2}},
    )  # fmt: skip


def test_sacred_flame_goes_with_healing_word_in_one_turn(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd, level=3)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 11})
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["ash"])
    _cast(dnd, ids["ash"], ids["bram"], "healing_word")
    _dice(monkeypatch, 20)
    assert _flame(dnd, ids, "goblin")["save"]["success"] is True
    dnd.write("combat_end_turn")
    _turn_of(dnd, ids["ash"])
    # And the other way round: the cantrip first, then the bonus-action spell.
    _dice(monkeypatch, 20, 1)
    _flame(dnd, ids, "goblin")
    assert _cast(dnd, ids["ash"], ids["bram"], "healing_word")["casting"] == "bonus_action"


def test_the_rules_let_only_an_action_cantrip_follow_a_bonus_action_spell() -> None:
    for cantrip in ("fire_bolt", "sacred_flame"):
        rules.check_spell_this_turn(
            rules.SPELLS[cantrip], [rules.SPELLS["healing_word"]], who="Ash"
        )
        rules.check_spell_this_turn(
            rules.SPELLS["healing_word"], [rules.SPELLS[cantrip]], who="Ash"
        )


def test_a_missed_fire_bolt_answers_as_spell_casts_output_schema_says(dnd: Game) -> None:
    ids = _party(dnd)
    scores = {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10}
    made = dnd.write("character_create", {"name": "Cai", "abilities": scores, "ac": 30}, sub=OTHER)
    # The campaign's own stream: its receipt is part of the answer.
    cast = _cast(dnd, ids["wren"], made["character"]["id"], "fire_bolt")
    assert (cast["hit"], cast["damage"]) == (False, None)
    (spec,) = (t for t in tools() if t.name == "spell_cast")
    jsonschema.validate(cast, spec.output_schema())
