"""Hit Dice and the short rest (SRD 5.1): a character has its level in Hit Dice of its class's
hit die, spends them on a short rest to heal (each the die + CON modifier, from the campaign's
stream), and a long rest gives half of them back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game
from tests.domain_servers.test_dnd5e_magic_missile import _rewrite


def _party(dnd: Game, *, level: int = 3) -> dict[str, str]:
    """Bram (the player's fighter, CON 14), Wren (the other player's wizard) and a goblin, in
    play."""
    bram = dnd.write(
        "character_create", {"name": "Bram", "template": "fighter", "level": level}, sub=PLAYER
    )
    wren = dnd.write("character_create", {"name": "Wren", "template": "wizard"}, sub=OTHER)
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    return {"bram": bram["character"]["id"], "wren": wren["character"]["id"], "goblin": goblin}


def _char(dnd: Game, char_id: str, sub: str = GM) -> dict[str, Any]:
    return dnd.read("character_get", {"character_id": char_id}, sub=sub)["character"]


def _refused(dnd: Game, args: dict[str, Any], sub: str = PLAYER) -> dict[str, Any]:
    """The refusal, having checked that it changed nothing."""
    before, revision = dnd.state(), dnd.revision
    error = dnd.fail("short_rest", args, sub=sub)
    assert (dnd.state(), dnd.revision) == (before, revision)
    return error


@pytest.mark.parametrize(
    ("template", "level", "die"),
    [("fighter", 1, 10), ("fighter", 3, 10), ("cleric", 2, 8), ("rogue", 5, 8), ("wizard", 4, 6)],
)
def test_a_character_has_its_level_in_hit_dice_of_its_class(
    dnd: Game, template: str, level: int, die: int
) -> None:
    created = dnd.write(
        "character_create", {"name": "Ash", "template": template, "level": level}, sub=PLAYER
    )
    expected = {"die": die, "current": level, "max": level}
    assert created["character"]["hit_dice"] == expected
    for sub in (GM, PLAYER, OTHER):
        assert _char(dnd, created["character"]["id"], sub)["hit_dice"] == expected


def test_a_character_of_no_template_has_d8_hit_dice(dnd: Game) -> None:
    scores = {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10}
    own = dnd.write("character_create", {"name": "Cai", "abilities": scores, "level": 2})
    assert own["character"]["hit_dice"] == {"die": 8, "current": 2, "max": 2}


def test_a_short_rest_spends_hit_dice_and_heals_each_die_plus_con(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 20})  # 28 -> 8
    rest = dnd.write("short_rest", {"character_id": ids["bram"], "dice": 2}, sub=PLAYER)
    assert rest.pop("receipt")["changed_scopes"] == [f"character:{ids['bram']}"]
    assert rest.pop("random_stream_receipt")["draw_count"] == 2
    assert rest.pop("roll") | {"rolls": None} == {
        "expression": "2d10+4", "total": 16, "detail": "2d10 [7, 5] = 12 + 4 => 16", "rolls": None,
    }  # fmt: skip
    assert rest == {
        "character_id": ids["bram"],
        "character_name": "Bram",
        "dice_spent": 2,
        "con_modifier": 2,
        "healed": 16,
        "hp_before": 8,
        "hp_after": 24,
        "hp_max": 28,
        "hit_dice": {"die": 10, "current": 1, "max": 3},
    }
    bram = _char(dnd, ids["bram"], PLAYER)
    assert (bram["hp"]["current"], bram["hit_dice"]) == (24, {"die": 10, "current": 1, "max": 3})


def test_healing_stops_at_maximum_hit_points(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 1})
    rest = dnd.write("short_rest", {"character_id": ids["bram"], "dice": 1}, sub=PLAYER)
    assert (rest["healed"], rest["hp_after"], rest["hit_dice"]["current"]) == (1, 28, 2)


def test_the_same_seed_and_calls_give_the_same_rest(dnd: Game, open_game) -> None:
    from domain_servers.dnd5e.server import create

    again = open_game(create, "sagasmith-dnd5e", "again", "a" * 64)
    rolls = []
    for game in (dnd, again):
        ids = _party(game)
        game.write("damage_apply", {"target_id": ids["bram"], "amount": 20})
        rolls.append(game.write("short_rest", {"character_id": ids["bram"], "dice": 3})["roll"])
    assert rolls[0] == rolls[1]


def test_each_refusal_changes_nothing(dnd: Game) -> None:
    ids = _party(dnd)
    args = {"character_id": ids["bram"], "dice": 1}
    assert _refused(dnd, args)["message"] == "Bram is already at full hit points (28/28)"
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 27})
    error = _refused(dnd, {**args, "dice": 4})
    assert (error["code"], error["message"]) == (
        "invalid_request", "Bram has 3 of 3 Hit Dice left, not the 4 asked",
    )  # fmt: skip
    assert _refused(dnd, args, sub=OTHER)["code"] == "authorization_denied"
    assert _refused(dnd, {"character_id": ids["goblin"], "dice": 1}, sub=GM)["message"] == (
        "Goblin is not a player character"
    )
    assert _refused(dnd, {**args, "dice": 0})["code"] == "invalid_request"
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 1})  # dying at 0 HP
    assert _refused(dnd, args)["message"] == (
        "Bram is dying (0 hit points, not stable) and cannot rest while death saving throws go on"
    )
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 28})  # dead
    assert _refused(dnd, args)["message"] == "Bram is dead and cannot rest"


def test_the_gm_rests_any_character(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["wren"], "amount": 3})
    rest = dnd.write("short_rest", {"character_id": ids["wren"], "dice": 1}, sub=GM)
    assert (rest["character_name"], rest["hit_dice"]) == (
        "Wren", {"die": 6, "current": 0, "max": 1},
    )  # fmt: skip


def test_no_short_rest_during_combat(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 5})
    dnd.write("combat_start", {"participant_ids": [ids["bram"], ids["goblin"]]})
    error = _refused(dnd, {"character_id": ids["bram"], "dice": 1})
    assert error["code"] == "phase_denied"


def test_a_long_rest_gives_back_half_the_hit_dice_at_least_one(dnd: Game) -> None:
    ids = _party(dnd, level=5)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 40})
    dnd.write("damage_apply", {"target_id": ids["wren"], "amount": 3})
    dnd.write("short_rest", {"character_id": ids["bram"], "dice": 5}, sub=PLAYER)
    dnd.write("short_rest", {"character_id": ids["wren"], "dice": 1}, sub=OTHER)
    dnd.write("long_rest")
    assert _char(dnd, ids["bram"])["hit_dice"] == {"die": 10, "current": 2, "max": 5}
    assert _char(dnd, ids["wren"])["hit_dice"] == {"die": 6, "current": 1, "max": 1}
    dnd.write("long_rest")
    assert _char(dnd, ids["bram"])["hit_dice"]["current"] == 4
    dnd.write("long_rest")
    assert _char(dnd, ids["bram"])["hit_dice"]["current"] == 5  # never above the total


def test_a_character_stored_before_hit_dice_were_kept_shows_a_full_pool_unstored(
    dnd: Game, tmp_path: Path
) -> None:
    ids = _party(dnd)

    def unkept(state: dict[str, Any]) -> None:
        for char_id in (ids["bram"], ids["wren"]):
            del state["characters"][char_id]["hit_dice"]

    _rewrite(dnd, tmp_path / "d.sqlite3", unkept)
    before, revision = dnd.state(), dnd.revision
    for sub in (GM, PLAYER, OTHER):
        assert _char(dnd, ids["bram"], sub)["hit_dice"] == {"die": 10, "current": 3, "max": 3}
        assert _char(dnd, ids["wren"], sub)["hit_dice"] == {"die": 6, "current": 1, "max": 1}
    # A read stores nothing: the pool is kept once it is spent from or a rest gives dice back.
    assert (dnd.state(), dnd.revision) == (before, revision)
    # Spending stores the pool.
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 5})
    dnd.write("short_rest", {"character_id": ids["bram"], "dice": 1}, sub=PLAYER)
    assert dnd.state()["characters"][ids["bram"]]["hit_dice"]["current"] == 2


def test_a_delegation_naming_another_of_the_players_characters_does_not_rest_this_one(
    dnd: Game,
) -> None:
    ids = _party(dnd)
    ash = dnd.write("character_create", {"name": "Ash", "template": "cleric"}, sub=PLAYER)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 5})
    revision = dnd.revision
    args = {"character_id": ids["bram"], "dice": 1}
    result = dnd.call(
        "short_rest", {**args, "expected_revision": revision, "idempotency_key": "try"}, PLAYER,
        character=ash["character"]["id"],
    )  # fmt: skip
    assert result.structured_content["error"]["message"] == "the delegation acts for Ash, not Bram"
    assert dnd.domain.storage.load(dnd.campaign)[0] == revision
