"""Spell slots and healing spells (SRD 5.1): a cleric's Cure Wounds and Healing Word spend a
slot, roll their healing from the campaign's stream and heal as `heal` does; a long rest gives
the slots and hit points back."""

from __future__ import annotations

from typing import Any

import pytest

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game
from tests.domain_servers.test_dnd5e_table_rules import _turn_of


def _party(dnd: Game, *, level: int = 1) -> dict[str, str]:
    """Ash (the player's cleric), Bram (the other player's fighter), Wren (the player's wizard)
    and a goblin, in play."""
    ash = dnd.write(
        "character_create", {"name": "Ash", "template": "cleric", "level": level}, sub=PLAYER
    )
    bram = dnd.write("character_create", {"name": "Bram", "template": "fighter"}, sub=OTHER)
    wren = dnd.write("character_create", {"name": "Wren", "template": "wizard"}, sub=PLAYER)
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    return {
        "ash": ash["character"]["id"],
        "bram": bram["character"]["id"],
        "wren": wren["character"]["id"],
        "goblin": goblin,
    }


def _char(dnd: Game, char_id: str, sub: str = GM) -> dict[str, Any]:
    return dnd.read("character_get", {"character_id": char_id}, sub=sub)["character"]


def _cast(dnd: Game, caster: str, target: str, spell: str, sub: str = PLAYER, **extra: Any):
    args = {"caster_id": caster, "target_id": target, "spell": spell, **extra}
    return dnd.write("spell_cast", args, sub=sub)


def _refused(dnd: Game, args: dict[str, Any], sub: str = PLAYER) -> dict[str, Any]:
    """The refusal, having checked that it changed nothing."""
    before, revision = dnd.state(), dnd.revision
    error = dnd.fail("spell_cast", args, sub=sub)
    assert (dnd.state(), dnd.revision) == (before, revision)
    return error


@pytest.mark.parametrize(
    ("level", "slots"),
    [
        (1, {"1": 2}),
        (2, {"1": 3}),
        (3, {"1": 4, "2": 2}),
        (4, {"1": 4, "2": 3}),
        (5, {"1": 4, "2": 3, "3": 2}),
    ],
)
@pytest.mark.parametrize("template", ["cleric", "wizard"])
def test_a_full_caster_is_created_with_the_srd_spell_slots_of_its_level(
    dnd: Game, template: str, level: int, slots: dict[str, int]
) -> None:
    created = dnd.write(
        "character_create", {"name": "Ash", "template": template, "level": level}, sub=PLAYER
    )
    expected = {k: {"current": v, "max": v} for k, v in slots.items()}
    assert created["character"]["spell_slots"] == expected
    # Everyone who reads the character sees them.
    for sub in (GM, PLAYER, OTHER):
        assert _char(dnd, created["character"]["id"], sub)["spell_slots"] == expected


def test_the_srd_table_gives_ninth_level_slots_at_17th_level() -> None:
    assert rules.spell_slots("cleric", 17)["9"] == {"current": 1, "max": 1}
    assert rules.spell_slots("wizard", 20) == {
        str(n): {"current": c, "max": c} for n, c in enumerate((4, 3, 3, 3, 3, 2, 2, 1, 1), 1)
    }


def test_a_character_who_is_no_full_caster_has_no_spell_slots(dnd: Game) -> None:
    ids = _party(dnd)
    assert _char(dnd, ids["bram"])["spell_slots"] == {}
    scores = {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10}
    own = dnd.write("character_create", {"name": "Cai", "abilities": scores}, sub=OTHER)
    assert own["character"]["spell_slots"] == {}


def test_cure_wounds_spends_a_slot_and_heals_1d8_plus_wis_from_the_stream(dnd: Game) -> None:
    ids = _party(dnd, level=3)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 8})  # 12 -> 4
    cast = _cast(dnd, ids["ash"], ids["bram"], "cure_wounds")
    assert cast.pop("receipt")["changed_scopes"] == [f"character:{ids['ash']}", "character:pc-2"]
    assert cast.pop("random_stream_receipt")["draw_count"] == 1
    assert cast.pop("roll") | {"rolls": None} == {
        "expression": "1d8+2", "total": 7, "detail": "1d8 [5] = 5 + 2 => 7", "rolls": None,
    }  # fmt: skip
    assert cast == {
        "caster_id": ids["ash"],
        "caster_name": "Ash",
        "spell": "cure_wounds",
        "spell_name": "Cure Wounds",
        "slot_level": 1,
        "slots_left": 3,
        "casting": "action",
        "source": "spell",
        "target_id": ids["bram"],
        "target_name": "Bram",
        "healed": 7,
        "hp_before": 4,
        "hp_after": 11,
        "revived": False,
    }
    assert _char(dnd, ids["ash"])["spell_slots"] == {
        "1": {"current": 3, "max": 4}, "2": {"current": 2, "max": 2},
    }  # fmt: skip


def test_healing_word_at_a_higher_slot_adds_a_die_and_brings_a_dying_creature_to(
    dnd: Game,
) -> None:
    ids = _party(dnd, level=3)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 12})  # dying at 0 HP
    assert "unconscious" in _char(dnd, ids["bram"])["conditions"]
    cast = _cast(dnd, ids["ash"], ids["bram"], "healing_word", slot_level=2)
    assert (cast["roll"]["expression"], cast["roll"]["total"]) == ("2d4+2", 6)
    assert (cast["hp_before"], cast["hp_after"], cast["revived"]) == (0, 6, True)
    assert (cast["slot_level"], cast["slots_left"], cast["casting"]) == (2, 1, "bonus_action")
    bram = _char(dnd, ids["bram"])
    assert "unconscious" not in bram["conditions"]
    assert bram["death_saves"] == {"successes": 0, "failures": 0}


def test_the_same_seed_and_calls_give_the_same_healing(dnd: Game, open_game) -> None:
    from domain_servers.dnd5e.server import create

    again = open_game(create, "sagasmith-dnd5e", "again", "a" * 64)
    rolls = []
    for game in (dnd, again):
        ids = _party(game)
        game.write("damage_apply", {"target_id": ids["bram"], "amount": 10})
        rolls.append(_cast(game, ids["ash"], ids["bram"], "cure_wounds")["roll"])
    assert rolls[0] == rolls[1]


def test_no_slot_of_that_level_left_is_refused_and_changes_nothing(dnd: Game) -> None:
    ids = _party(dnd)  # two 1st-level slots
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 11})
    _cast(dnd, ids["ash"], ids["bram"], "healing_word")
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 5})
    _cast(dnd, ids["ash"], ids["bram"], "healing_word")
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 5})
    args = {"caster_id": ids["ash"], "target_id": ids["bram"], "spell": "cure_wounds"}
    error = _refused(dnd, args)
    assert (error["code"], error["message"]) == (
        "invalid_request", "Ash has no level 1 spell slot left (0 of 2)",
    )  # fmt: skip
    error = _refused(dnd, {**args, "slot_level": 2})
    assert error["message"] == "Ash has no level 2 spell slots"


def test_a_caster_without_the_spell_is_refused(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 5})
    error = _refused(
        dnd, {"caster_id": ids["wren"], "target_id": ids["bram"], "spell": "cure_wounds"}
    )
    assert (error["code"], error["message"]) == (
        "invalid_request", "Wren cannot cast Cure Wounds: it is not a wizard spell",
    )  # fmt: skip
    error = _refused(
        dnd, {"caster_id": ids["bram"], "target_id": ids["bram"], "spell": "healing_word"}, OTHER
    )
    assert error["message"] == (
        "Bram casts no spells: only a cleric or a wizard has spell slots here"
    )
    error = _refused(
        dnd, {"caster_id": ids["goblin"], "target_id": ids["bram"], "spell": "healing_word"}, GM
    )
    assert error["message"] == (
        "Goblin casts no spells: only a cleric or a wizard has spell slots here"
    )


def test_a_slot_below_the_spells_level_is_refused(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 5})
    args = {"caster_id": ids["ash"], "target_id": ids["bram"], "spell": "cure_wounds"}
    # The schema's minimum is 1, the spells' level: the bound says it before the handler.
    assert _refused(dnd, {**args, "slot_level": 0})["code"] == "invalid_request"


def test_the_dead_and_the_unhurt_are_refused_before_a_slot_is_spent(dnd: Game) -> None:
    ids = _party(dnd)
    args = {"caster_id": ids["ash"], "target_id": ids["bram"], "spell": "cure_wounds"}
    assert _refused(dnd, args)["message"] == "Bram is already at full hit points (12/12)"
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 24})  # massive damage
    assert _refused(dnd, args)["message"] == "Bram is dead and cannot be healed"
    assert _char(dnd, ids["ash"])["spell_slots"]["1"] == {"current": 2, "max": 2}


def test_a_player_casts_only_for_their_own_character_the_gm_for_any(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 5})
    args = {"caster_id": ids["ash"], "target_id": ids["bram"], "spell": "cure_wounds"}
    error = _refused(dnd, args, OTHER)
    assert (error["code"], error["message"]) == (
        "authorization_denied", "the requester does not control Ash",
    )  # fmt: skip
    assert _cast(dnd, ids["ash"], ids["bram"], "cure_wounds", sub=GM)["slots_left"] == 1


def test_in_combat_cure_wounds_takes_the_action_and_healing_word_the_bonus_action(
    dnd: Game,
) -> None:
    ids = _party(dnd, level=3)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 11})
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["bram"])
    args = {"caster_id": ids["ash"], "target_id": ids["bram"], "spell": "healing_word"}
    bram_turn = _refused(dnd, args)
    assert bram_turn["message"] == "it is Bram's turn, not Ash's"
    _turn_of(dnd, ids["ash"])
    # Side by side at the start: Bram is within touch.
    _cast(dnd, ids["ash"], ids["bram"], "cure_wounds")
    budget = {e["id"]: e["budget"] for e in dnd.read("combat_status")["combat"]["order"]}
    assert (budget[ids["ash"]]["action"], budget[ids["ash"]]["bonus_action"]) == (0, 1)
    assert _refused(dnd, {**args, "spell": "cure_wounds"})["message"] == (
        "Ash has no action left this turn"
    )
    # The bonus action is left, but Healing Word may not follow a levelled spell in one turn
    # (test_dnd5e_bonus_action_spells); on Ash's next turn it takes the bonus action.
    dnd.write("combat_end_turn")
    _turn_of(dnd, ids["ash"])
    _cast(dnd, ids["ash"], ids["bram"], "healing_word")
    budget = {e["id"]: e["budget"] for e in dnd.read("combat_status")["combat"]["order"]}
    assert (budget[ids["ash"]]["action"], budget[ids["ash"]]["bonus_action"]) == (1, 0)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 11})
    assert _refused(dnd, args)["message"] == "Ash has no bonus action left this turn"


def test_the_gm_long_rest_restores_slots_and_hit_points_to_the_party(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 9})
    _cast(dnd, ids["ash"], ids["bram"], "cure_wounds")
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 3})
    dnd.write("temp_hp_grant", {"target_id": ids["wren"], "amount": 4})
    error = dnd.fail("long_rest", {}, sub=PLAYER)
    assert error["code"] == "authorization_denied"
    rest = dnd.write("long_rest")
    assert rest.pop("receipt")["changed_scopes"] == [
        f"character:{ids['ash']}", f"character:{ids['bram']}", f"character:{ids['wren']}",
    ]  # fmt: skip
    ash, bram, wren = (_char(dnd, ids[k]) for k in ("ash", "bram", "wren"))
    assert rest == {
        "rested": [
            {
                "character_id": ids["ash"],
                "character_name": "Ash",
                "hp_before": {"current": 7, "max": 10, "temp": 0},
                "hp_after": {"current": 10, "max": 10, "temp": 0},
                "spell_slots": {"1": {"current": 2, "max": 2}},
                "hit_dice": {"die": 8, "current": 1, "max": 1},
            },
            {
                "character_id": ids["bram"],
                "character_name": "Bram",
                "hp_before": {"current": 10, "max": 12, "temp": 0},  # 3 + 7
                "hp_after": {"current": 12, "max": 12, "temp": 0},
                "spell_slots": {},
                "hit_dice": {"die": 10, "current": 1, "max": 1},
            },
            {
                "character_id": ids["wren"],
                "character_name": "Wren",
                "hp_before": {"current": 7, "max": 7, "temp": 4},
                "hp_after": {"current": 7, "max": 7, "temp": 0},
                "spell_slots": {"1": {"current": 2, "max": 2}},
                "hit_dice": {"die": 6, "current": 1, "max": 1},
            },
        ],
        "skipped": [],
    }
    assert (ash["spell_slots"]["1"]["current"], bram["hp"]["current"], wren["hp"]["temp"]) == (
        2, 12, 0,
    )  # fmt: skip


def test_a_named_long_rest_rests_one_and_the_dying_gain_nothing(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 12})  # dying
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 1})
    before, revision = dnd.state(), dnd.revision
    error = dnd.fail("long_rest", {"character_id": ids["bram"]})
    assert (error["code"], error["message"]) == (
        "invalid_request", "no one gains anything from a long rest: Bram is at 0 hit points",
    )  # fmt: skip
    assert (dnd.state(), dnd.revision) == (before, revision)
    rest = dnd.write("long_rest", {"character_id": ids["ash"]})
    assert [r["character_id"] for r in rest["rested"]] == [ids["ash"]]
    party = dnd.write("long_rest")
    assert party["skipped"] == [
        {"character_id": ids["bram"], "character_name": "Bram", "reason": "at 0 hit points"}
    ]
    assert _char(dnd, ids["bram"])["hp"]["current"] == 0


def test_no_long_rest_during_combat(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["goblin"]]})
    assert dnd.fail("long_rest")["code"] == "phase_denied"


def test_the_receipts_name_every_view_a_cast_and_a_rest_change(dnd: Game) -> None:
    from tests.domain_servers.test_receipt_scopes import DND5E_READS, Audited

    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 11})
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["ash"])
    audited = Audited(dnd, DND5E_READS)
    args = {"caster_id": ids["ash"], "target_id": ids["bram"], "spell": "healing_word"}
    assert audited.write("spell_cast", args, PLAYER)["receipt"]["changed_scopes"] == [
        "character:pc-1", "character:pc-2", "combat",
    ]  # fmt: skip
    dnd.write("combat_end")
    assert audited.write("long_rest")["receipt"]["changed_scopes"] == [
        "character:pc-1", "character:pc-2", "character:pc-3",
    ]  # fmt: skip


def test_cure_wounds_needs_touch_and_healing_word_reaches_60_ft(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 11})
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["ash"])
    dnd.write("combat_move", {"character_id": ids["ash"], "x": 0, "y": 0}, sub=PLAYER)
    positions = {e["id"]: e["position"] for e in dnd.read("combat_status")["combat"]["order"]}
    distance = rules.grid_distance(positions[ids["ash"]], positions[ids["bram"]])
    args = {"caster_id": ids["ash"], "target_id": ids["bram"], "spell": "cure_wounds"}
    assert _refused(dnd, args)["message"] == (
        f"Bram is {distance} ft away from Ash; Cure Wounds is cast by touch (5 ft). "
        "Move closer first."
    )
    assert 5 < distance <= 60
    assert _cast(dnd, ids["ash"], ids["bram"], "healing_word")["hp_before"] == 1
