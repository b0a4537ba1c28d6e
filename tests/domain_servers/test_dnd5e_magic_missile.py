"""Magic Missile (SRD 5.1): a wizard's level 1 evocation through `spell_cast`: three darts of
1d4+1 force damage, one more per slot level above 1st, all at one target within 120 ft, never
missing; the slot is spent and the damage rolled from the campaign's stream and applied as
`damage_apply` applies it."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _char, _party, _refused
from tests.domain_servers.test_dnd5e_table_rules import _turn_of


def _missile(dnd: Game, ids: dict[str, str], target: str, **extra: Any) -> dict[str, Any]:
    return _cast(dnd, ids["wren"], ids[target], "magic_missile", **extra)


@pytest.mark.parametrize(("slot_level", "darts", "expression"), [(1, 3, "3d4+3"), (2, 4, "4d4+4")])
def test_magic_missile_fires_three_darts_and_one_more_per_slot_level_above_first(
    dnd: Game, slot_level: int, darts: int, expression: str
) -> None:
    ids = _party(dnd)
    made = dnd.write(
        "character_create", {"name": "Ola", "template": "wizard", "level": 3}, sub=PLAYER
    )
    ids["wren"] = made["character"]["id"]
    cast = _missile(dnd, ids, "goblin", slot_level=slot_level)
    assert (cast["darts"], cast["roll"]["expression"]) == (darts, expression)
    assert len(cast["roll"]["rolls"][0]["results"]) == darts
    assert cast["slot_level"] == slot_level


def test_magic_missile_spends_a_slot_and_deals_force_damage_from_the_stream(dnd: Game) -> None:
    ids = _party(dnd)
    cast = _missile(dnd, ids, "bram")
    assert cast.pop("receipt")["changed_scopes"] == [
        f"character:{ids['bram']}", f"character:{ids['wren']}",
    ]  # fmt: skip
    assert cast.pop("random_stream_receipt")["draw_count"] == 3
    assert cast.pop("roll") | {"rolls": None} == {
        "expression": "3d4+3", "total": 11, "detail": "3d4 [1, 3, 4] = 8 + 3 => 11", "rolls": None,
    }  # fmt: skip
    assert cast == {
        "caster_id": ids["wren"],
        "caster_name": "Wren",
        "spell": "magic_missile",
        "spell_name": "Magic Missile",
        "slot_level": 1,
        "slots_left": 1,
        "casting": "action",
        "source": "spell",
        "darts": 3,
        "target_id": ids["bram"],
        "target_name": "Bram",
        "damage": {
            "target_id": ids["bram"],
            "raw": 11,
            "damage_type": "force",
            "adjusted": 11,
            "absorbed_by_temp_hp": 0,
            "hp_before": {"current": 12, "max": 12, "temp": 0},
            "hp_after": {"current": 1, "max": 12, "temp": 0},
            "dropped_to_zero": False,
            "death_save_failures_added": 0,
            "death_saves": {"successes": 0, "failures": 0},
            "dead": False,
            "hits": [2, 4, 5],
        },
    }
    assert _char(dnd, ids["wren"])["spell_slots"] == {"1": {"current": 1, "max": 2}}
    assert _char(dnd, ids["bram"])["hp"]["current"] == 1


def test_the_darts_hit_temporary_hit_points_first_and_a_pc_at_zero_is_dying(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 4})  # 12 -> 8
    dnd.write("temp_hp_grant", {"target_id": ids["bram"], "amount": 2})
    damage = _missile(dnd, ids, "bram")["damage"]  # 11 force: 2 temporary, then 9
    assert (damage["absorbed_by_temp_hp"], damage["hp_after"], damage["dropped_to_zero"]) == (
        2, {"current": 0, "max": 12, "temp": 0}, True,
    )  # fmt: skip
    bram = _char(dnd, ids["bram"], PLAYER)
    assert (bram["conditions"], bram["status"]) == (["prone", "unconscious"], "down")


def test_each_dart_at_a_dying_pc_is_a_failed_death_save(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 12})  # 12 -> 0, dying
    damage = _missile(dnd, ids, "bram")["damage"]
    # Three darts, three failures: the third kills; no dart lands on the dead.
    assert (damage["death_save_failures_added"], damage["dead"], damage["hits"]) == (
        3,
        True,
        [2, 4, 5],
    )
    assert _char(dnd, ids["bram"], PLAYER)["status"] == "dead"


def test_resistance_halves_each_dart(dnd: Game) -> None:
    ids = _party(dnd)
    scores = {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10}
    made = dnd.write(
        "character_create",
        {"name": "Cai", "abilities": scores, "max_hp": 20, "resistances": ["force"]},
        sub=OTHER,
    )
    # Darts of 2, 4 and 5 become 1, 2 and 2 (halves round down): 5, where 11 halved is 5 too.
    damage = _missile(dnd, {**ids, "cai": made["character"]["id"]}, "cai")["damage"]
    assert damage["hits"] == [1, 2, 2]


def test_casting_gives_away_a_hidden_casters_place(dnd: Game, tmp_path: Path) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["wren"], ids["goblin"]]})
    _turn_of(dnd, ids["wren"])
    _rewrite(dnd, tmp_path / "d.sqlite3", lambda s: s["combat"].update({"hidden": [ids["wren"]]}))
    _missile(dnd, ids, "goblin")
    assert dnd.state()["combat"]["hidden"] == []


@pytest.mark.parametrize(("defence", "taken"), [("resistances", 5), ("immunities", 0)])
def test_resistance_and_immunity_to_force_cut_the_damage(
    dnd: Game, defence: str, taken: int
) -> None:
    ids = _party(dnd)
    scores = {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10}
    made = dnd.write(
        "character_create",
        {"name": "Cai", "abilities": scores, "max_hp": 20, defence: ["force"]},
        sub=OTHER,
    )
    ids["cai"] = made["character"]["id"]
    damage = _missile(dnd, ids, "cai")["damage"]
    assert (damage["raw"], damage["adjusted"], damage["hp_after"]["current"]) == (
        11, taken, 20 - taken,
    )  # fmt: skip


def test_a_monster_dropped_to_zero_dies(dnd: Game) -> None:
    ids = _party(dnd)  # a goblin has 7 hit points
    damage = _missile(dnd, ids, "goblin", sub=GM)["damage"]
    assert (damage["hp_after"]["current"], damage["dropped_to_zero"], damage["dead"]) == (
        0, True, True,
    )  # fmt: skip
    assert _char(dnd, ids["goblin"], PLAYER)["status"] == "dead"


def test_a_player_sees_the_damage_done_to_a_monster_but_not_its_hit_points(dnd: Game) -> None:
    ids = _party(dnd)
    cast = _missile(dnd, ids, "goblin")
    assert cast["damage"] == {
        "target_id": ids["goblin"], "dropped_to_zero": True, "dead": True, "status": "dead",
    }  # fmt: skip
    # The damage rolled shows, as an attack's damage does; the goblin's hit points do not.
    assert cast["roll"]["total"] == 11
    assert "hp" not in _char(dnd, ids["goblin"], PLAYER)


def test_the_public_view_hides_a_monsters_hit_points_as_an_attacks_does(dnd: Game) -> None:
    ids = _party(dnd)
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    args = {
        "caster_id": ids["wren"],
        "target_id": ogre,
        "spell": "magic_missile",
        "expected_revision": dnd.revision,
        "idempotency_key": "missile",
    }
    shown = dnd.call("spell_cast", args, view="public").structured_content
    assert shown["damage"] == {
        "target_id": ogre, "dropped_to_zero": False, "dead": False, "status": "wounded",
    }  # fmt: skip
    # The GM's answer for the same stored cast.
    full = dnd.call("spell_cast", args).structured_content["damage"]
    assert (full["hp_before"]["current"], full["hp_after"]["current"]) == (59, 48)


def test_the_same_seed_and_calls_give_the_same_damage(dnd: Game, open_game) -> None:
    from domain_servers.dnd5e.server import create

    again = open_game(create, "sagasmith-dnd5e", "again", "a" * 64)
    rolls = [_missile(game, _party(game), "bram")["roll"] for game in (dnd, again)]
    assert rolls[0] == rolls[1]


def test_only_a_wizard_casts_magic_missile_and_refusals_change_nothing(dnd: Game) -> None:
    ids = _party(dnd)
    args = {"caster_id": ids["ash"], "target_id": ids["goblin"], "spell": "magic_missile"}
    assert _refused(dnd, args)["message"] == (
        "Ash cannot cast Magic Missile: it is not a cleric spell"
    )
    wren = {**args, "caster_id": ids["wren"]}
    assert _refused(dnd, {**wren, "target_id": ids["wren"]})["message"] == (
        "Wren cannot target themselves with Magic Missile"
    )
    assert _refused(dnd, {**wren, "slot_level": 2})["message"] == "Wren has no level 2 spell slots"
    dnd.write("damage_apply", {"target_id": ids["goblin"], "amount": 50})
    assert _refused(dnd, wren)["message"] == "Goblin is dead and cannot take damage"
    _missile(dnd, ids, "bram")
    dnd.write("long_rest")
    _missile(dnd, ids, "bram")
    _missile(dnd, ids, "ash")
    assert _refused(dnd, {**wren, "target_id": ids["bram"]})["message"] == (
        "Wren has no level 1 spell slot left (0 of 2)"
    )


def _rewrite(dnd: Game, path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Changes the stored campaign as no tool would: a larger grid, a character stored before
    a field was kept."""
    state = dnd.state()
    change(state)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE campaigns SET state = ? WHERE id = ?", (json.dumps(state), dnd.campaign)
        )


def test_in_combat_magic_missile_takes_the_action_and_reaches_120_ft(
    dnd: Game, tmp_path: Path
) -> None:
    ids = _party(dnd)
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    dnd.write("combat_start", {"participant_ids": [ids["wren"], ogre]})
    _turn_of(dnd, ogre)
    args = {"caster_id": ids["wren"], "target_id": ogre, "spell": "magic_missile"}
    assert _refused(dnd, args)["message"] == "it is Ogre's turn, not Wren's"
    _turn_of(dnd, ids["wren"])

    def far_apart(state: dict[str, Any]) -> None:
        # The start's grid is never 120 ft across: widen it, 125 ft between them.
        state["combat"]["grid"]["width"] = 40
        state["combat"]["positions"].update({ids["wren"]: [0, 0], ogre: [25, 0]})

    _rewrite(dnd, tmp_path / "d.sqlite3", far_apart)
    assert _refused(dnd, args)["message"] == (
        "Ogre is 125 ft away from Wren; Magic Missile reaches 120 ft. Move closer first."
    )
    _rewrite(
        dnd, tmp_path / "d.sqlite3", lambda s: s["combat"]["positions"].update({ogre: [24, 0]})
    )
    assert _missile(dnd, {**ids, "ogre": ogre}, "ogre")["damage"]["status"] == "wounded"
    budget = {e["id"]: e["budget"] for e in dnd.read("combat_status")["combat"]["order"]}
    assert (budget[ids["wren"]]["action"], budget[ids["wren"]]["bonus_action"]) == (0, 1)
    assert _refused(dnd, args)["message"] == "Wren has no action left this turn"


def test_a_character_stored_before_slots_were_kept_shows_its_tables_slots_unstored(
    dnd: Game, tmp_path: Path
) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["wren"], ids["goblin"]]})

    def unkept(state: dict[str, Any]) -> None:
        for char_id in (ids["wren"], ids["bram"]):
            del state["characters"][char_id]["spell_slots"]

    _rewrite(dnd, tmp_path / "d.sqlite3", unkept)
    before, revision = dnd.state(), dnd.revision
    for sub in (GM, PLAYER, OTHER):
        assert _char(dnd, ids["wren"], sub)["spell_slots"] == {"1": {"current": 2, "max": 2}}
        assert _char(dnd, ids["bram"], sub)["spell_slots"] == {}
    order = dnd.read("combat_status", sub=PLAYER)["combat"]["order"]
    shown = {e["id"]: e["character"].get("spell_slots") for e in order}
    assert shown == {ids["wren"]: {"1": {"current": 2, "max": 2}}, ids["goblin"]: None}
    # A read stores nothing: the slots are kept once one is spent or a rest restores them.
    assert (dnd.state(), dnd.revision) == (before, revision)
