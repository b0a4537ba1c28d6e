"""Temporary hit points: granted by the GM or the character's controller, never stacking,
spent before hit points, and seen by whoever sees the creature's hit points."""

from __future__ import annotations

from typing import Any

from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game


def _party(dnd: Game) -> dict[str, str]:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    return {"ash": ash["character"]["id"], "goblin": goblin}


def _hp(dnd: Game, char_id: str, sub: str = GM) -> dict[str, int] | None:
    return dnd.read("character_get", {"character_id": char_id}, sub=sub)["character"].get("hp")


def _grant(dnd: Game, char_id: str, amount: int, sub: str = GM, **claims: Any) -> dict:
    result = dnd.write("temp_hp_grant", {"target_id": char_id, "amount": amount}, sub, **claims)
    result.pop("receipt")
    return result


def test_the_gm_grants_temporary_hit_points_that_absorb_damage_first(dnd: Game) -> None:
    ids = _party(dnd)
    hp = _hp(dnd, ids["ash"])
    granted = dnd.write("temp_hp_grant", {"target_id": ids["ash"], "amount": 5})
    assert granted["receipt"]["changed_scopes"] == [f"character:{ids['ash']}"]
    assert granted["receipt"]["entity_ids"] == [ids["ash"]]
    granted.pop("receipt")
    assert granted == {
        "target_id": ids["ash"],
        "target_name": "Ash",
        "amount": 5,
        "temp_hp_before": 0,
        "temp_hp_after": 5,
        "replaced": True,
    }
    # Everyone who sees Ash's hit points sees them.
    for sub in (GM, PLAYER, OTHER):
        assert _hp(dnd, ids["ash"], sub) == {**hp, "temp": 5}

    effect = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 3})
    assert (effect["absorbed_by_temp_hp"], effect["hp_after"]) == (3, {**hp, "temp": 2})
    effect = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 4})
    assert (effect["absorbed_by_temp_hp"], effect["hp_after"]) == (
        2, {**hp, "current": hp["current"] - 2, "temp": 0},
    )  # fmt: skip


def test_temporary_hit_points_do_not_stack_the_higher_is_kept(dnd: Game) -> None:
    ids = _party(dnd)
    _grant(dnd, ids["ash"], 5)
    lower = _grant(dnd, ids["ash"], 3)
    assert (lower["temp_hp_before"], lower["temp_hp_after"], lower["replaced"]) == (5, 5, False)
    same = _grant(dnd, ids["ash"], 5)
    assert (same["temp_hp_after"], same["replaced"]) == (5, False)
    higher = _grant(dnd, ids["ash"], 8)
    assert (higher["temp_hp_before"], higher["temp_hp_after"], higher["replaced"]) == (5, 8, True)
    assert _hp(dnd, ids["ash"])["temp"] == 8


def test_the_controller_may_grant_their_character_temporary_hit_points(dnd: Game) -> None:
    ids = _party(dnd)
    assert _grant(dnd, ids["ash"], 7, sub=PLAYER)["temp_hp_after"] == 7
    error = dnd.fail("temp_hp_grant", {"target_id": ids["ash"], "amount": 9}, sub=OTHER)
    assert (error["code"], error["message"]) == (
        "authorization_denied", "the requester does not control Ash",
    )  # fmt: skip
    error = dnd.fail("temp_hp_grant", {"target_id": ids["goblin"], "amount": 9}, sub=PLAYER)
    assert (error["code"], error["message"]) == (
        "authorization_denied", "the requester does not control Goblin",
    )  # fmt: skip
    dnd.write("member_grant", {"principal": "user:watcher", "role": "observer"})
    before, revision = dnd.state(), dnd.revision
    error = dnd.fail("temp_hp_grant", {"target_id": ids["ash"], "amount": 9}, sub="user:watcher")
    assert (error["code"], error["message"]) == (
        "authorization_denied", "role observer may not call temp_hp_grant",
    )  # fmt: skip
    assert dnd.state() == before and dnd.revision == revision


def test_the_amount_is_1_to_999_and_the_dead_gain_none(dnd: Game) -> None:
    ids = _party(dnd)
    before, revision = dnd.state(), dnd.revision
    for amount in (0, 1000):
        error = dnd.fail("temp_hp_grant", {"target_id": ids["ash"], "amount": amount})
        assert error["code"] == "invalid_request"
    dnd.write("damage_apply", {"target_id": ids["goblin"], "amount": 50})
    revision = dnd.revision
    error = dnd.fail("temp_hp_grant", {"target_id": ids["goblin"], "amount": 5})
    assert (error["code"], error["message"]) == (
        "invalid_request", "Goblin is dead and cannot gain temporary hit points",
    )  # fmt: skip
    assert dnd.revision == revision
    assert before["characters"][ids["ash"]] == dnd.state()["characters"][ids["ash"]]


def test_not_in_the_lobby(dnd: Game) -> None:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    error = dnd.fail("temp_hp_grant", {"target_id": ash["character"]["id"], "amount": 5})
    assert error["code"] == "phase_denied"


def test_a_dying_character_gains_temporary_hit_points_but_stays_down(dnd: Game) -> None:
    ids = _party(dnd)
    hp = _hp(dnd, ids["ash"])
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": hp["current"]})
    assert _grant(dnd, ids["ash"], 4)["temp_hp_after"] == 4
    card = dnd.read("character_get", {"character_id": ids["ash"]}, sub=PLAYER)["character"]
    assert (card["hp"], card["conditions"], card["status"]) == (
        {**hp, "current": 0, "temp": 4}, ["prone", "unconscious"], "down",
    )  # fmt: skip
    # A hit the temporary hit points take whole is no death-save failure.
    effect = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 3})
    assert (effect["death_save_failures_added"], effect["hp_after"]["temp"]) == (0, 1)


def test_a_monsters_temporary_hit_points_are_hidden_like_its_hit_points(dnd: Game) -> None:
    ids = _party(dnd)
    goblin = ids["goblin"]
    narrowed = _grant(dnd, goblin, 6, view="public")
    assert narrowed == {"target_id": goblin, "target_name": "Goblin"}
    assert _hp(dnd, goblin) == {"current": 7, "max": 7, "temp": 6}  # the GM sees them
    assert _hp(dnd, goblin, sub=PLAYER) is None  # a player sees no hit points at all
    # Damage they absorb shows at the public view only as the goblin's status.
    result = dnd.call(
        "damage_apply",
        {"target_id": goblin, "amount": 4, "expected_revision": dnd.revision,
         "idempotency_key": "hit"},
        view="public",
    )  # fmt: skip
    shown = result.structured_content
    shown.pop("receipt")
    assert shown == {"target_id": goblin, "dropped_to_zero": False, "dead": False,
                     "status": "unhurt"}  # fmt: skip


def test_in_combat_the_combat_views_are_named(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": sorted(ids.values())})
    granted = dnd.write("temp_hp_grant", {"target_id": ids["ash"], "amount": 5}, sub=PLAYER)
    assert granted["receipt"]["changed_scopes"] == [f"character:{ids['ash']}", "combat"]
    order = dnd.read("combat_status", sub=PLAYER)["combat"]["order"]
    (card,) = [e["character"] for e in order if e["id"] == ids["ash"]]
    assert card["hp"]["temp"] == 5


def test_the_tool_is_listed_like_every_other_write(dnd: Game) -> None:
    spec = dnd.domain.tools["temp_hp_grant"]
    assert (spec.write, spec.destructive, spec.public is not None) == (True, False, True)
    assert spec.roles == frozenset({"owner", "gm", "player"})
    assert spec.phases == frozenset({"play", "combat"})
    schema = spec.input_schema()
    assert schema["properties"]["amount"]["minimum"] == 1
    assert schema["properties"]["amount"]["maximum"] == 999
    assert schema["required"] == [
        "amount", "campaign_id", "expected_revision", "idempotency_key", "target_id",
    ]  # fmt: skip
