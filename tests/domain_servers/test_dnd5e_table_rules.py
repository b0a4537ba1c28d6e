"""dnd5e as a careful table plays it: potions of healing, dying after stabilising, standing up."""

from __future__ import annotations

import pytest

from domain_servers.common.errors import DomainError
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import OTHER, PLAYER, Game, ScriptedStream
from tests.domain_servers.test_dnd5e_rules import pc

# -- pure rules -----------------------------------------------------------------------------------


def test_healing_at_full_hit_points_is_refused_and_changes_nothing() -> None:
    char = pc()
    with pytest.raises(DomainError, match=r"Ash is already at full hit points \(20/20\)"):
        rules.heal(char, 5)
    assert char == pc()


def test_damage_to_a_stable_creature_makes_it_dying_again() -> None:
    char = pc(
        hp={"current": 0, "max": 20, "temp": 0},
        conditions=["prone", "stable", "unconscious"],
    )
    effect = rules.apply_damage(char, 3, "slashing")
    assert "stable" not in char["conditions"]
    assert char["death_saves"] == {"successes": 0, "failures": 1}
    assert (effect["death_save_failures_added"], effect["death_saves"]) == (
        1,
        {"successes": 0, "failures": 1},
    )
    # Dying again: it makes death saves.
    assert rules.death_save(char, ScriptedStream(12))["outcome"] == "success"
    # A critical counts two; the third failure kills, and the effect still says how many.
    effect = rules.apply_damage(char, 1, "slashing", critical=True)
    assert effect["dead"] is True and effect["death_saves"]["failures"] == 3
    assert "dead" in char["conditions"]


def test_a_stable_creature_is_told_why_it_makes_no_death_save() -> None:
    char = pc(hp={"current": 0, "max": 20, "temp": 0}, conditions=["stable", "unconscious"])
    with pytest.raises(DomainError, match="Ash is stable and makes no death saves"):
        rules.death_save(char, ScriptedStream(10))


def _downed(**overrides) -> dict:
    return pc(
        id="pc-2",
        name="Bram",
        hp={"current": 0, "max": 20, "temp": 0},
        conditions=["prone", "unconscious"],
        **overrides,
    )


def test_a_hit_on_an_unconscious_creature_within_5_ft_is_a_critical_hit() -> None:
    target = _downed()
    # Advantage (prone, unconscious): 12 and 5 keep 12; +5 hits AC 15. Damage 1d8 doubled.
    result = rules.resolve_attack(
        pc(),
        target,
        pc()["attacks"][0],
        ScriptedStream(12, 5, 3, 4),
        advantage=False,
        disadvantage=False,
        within_5ft=True,
    )
    assert result["hit"] and result["critical"]
    assert result["critical_reason"] == "Bram is unconscious within 5 ft"
    assert result["to_hit"]["advantage_reasons"] == ["Bram is prone", "Bram is unconscious"]
    assert result["damage"]["rolls"][0]["results"] == [3, 4]
    assert result["damage"]["effect"]["death_save_failures_added"] == 2
    assert target["death_saves"]["failures"] == 2
    # No grid: a melee weapon is taken to strike from within 5 ft.
    again = rules.resolve_attack(
        pc(),
        _downed(),
        pc()["attacks"][0],
        ScriptedStream(12, 5, 3, 4),
        advantage=False,
        disadvantage=False,
    )
    assert again["critical"] is True


def test_from_afar_an_unconscious_target_is_hit_normally_and_prone_hinders() -> None:
    target = _downed()
    # Prone beyond 5 ft gives disadvantage, unconscious advantage: they cancel, one d20.
    result = rules.resolve_attack(
        pc(),
        target,
        pc()["attacks"][0],
        ScriptedStream(12, 3),
        advantage=False,
        disadvantage=False,
        within_5ft=False,
    )
    assert result["to_hit"]["mode"] == "normal" and result["to_hit"]["rolls"] == [12]
    assert result["to_hit"]["disadvantage_reasons"] == ["Bram is prone and more than 5 ft away"]
    assert result["hit"] and not result["critical"] and "critical_reason" not in result
    assert target["death_saves"]["failures"] == 1


def test_a_prone_attacker_attacks_with_disadvantage_and_the_result_says_why() -> None:
    target = pc(id="mon-1", kind="monster", name="Goblin", ac=10)
    result = rules.resolve_attack(
        pc(conditions=["prone"]),
        target,
        pc()["attacks"][0],
        ScriptedStream(15, 4),
        advantage=False,
        disadvantage=False,
        disadvantage_reasons=["long range"],
    )
    assert result["to_hit"]["mode"] == "disadvantage" and result["to_hit"]["natural"] == 4
    assert result["to_hit"]["disadvantage_reasons"] == ["long range", "Ash is prone"]


# -- through the pipeline -------------------------------------------------------------------------


def _table(dnd: Game) -> dict[str, str]:
    """Ash (the player's), Bram (the other player's) and a goblin, in combat."""
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    # Enough hit points that a goblin's critical hit at 0 HP is no massive-damage death.
    bram = dnd.write(
        "character_create", {"name": "Bram", "template": "cleric", "max_hp": 30}, sub=OTHER
    )
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    ids = {"ash": ash["character"]["id"], "bram": bram["character"]["id"], "goblin": goblin}
    dnd.write("combat_start", {"participant_ids": sorted(ids.values())})
    return ids


def _turn_of(dnd: Game, char_id: str) -> None:
    for _ in range(4):
        if dnd.read("combat_status")["combat"]["current"] == char_id:
            return
        dnd.write("combat_end_turn")
    raise AssertionError(f"{char_id} never came up")


def test_ending_a_turn_that_has_already_ended_is_refused_and_changes_nothing(dnd: Game) -> None:
    ids = _table(dnd)
    ended = dnd.read("combat_status")["combat"]["current"]
    dnd.write("combat_end_turn", {"character_id": ended})
    now = dnd.read("combat_status")["combat"]["current"]
    assert now != ended
    before, revision = dnd.state(), dnd.revision
    # The same "end turn" again, for the turn it meant: the one now current is not ended.
    error = dnd.fail("combat_end_turn", {"character_id": ended})
    names = {ids["ash"]: "Ash", ids["bram"]: "Bram", ids["goblin"]: "Goblin"}
    assert error["code"] == "invalid_request"
    assert error["message"] == (
        f"it is {names[now]}'s turn now, not {names[ended]}'s; that turn has already ended"
    )
    # Who may end the current turn is asked first; an id not in the fight is no ended turn.
    outsider = OTHER if now == ids["ash"] else PLAYER
    denied = dnd.fail("combat_end_turn", {"character_id": ended}, sub=outsider)
    assert denied["code"] == "authorization_denied"
    unknown = dnd.fail("combat_end_turn", {"character_id": "nobody"})
    assert (unknown["code"], unknown["message"]) == (
        "invalid_request", "nobody is not in this combat"
    )  # fmt: skip
    assert dnd.state() == before and dnd.read("campaign_get")["authority_revision"] == revision
    # Naming the current combatant (or no one) ends it as before.
    assert dnd.write("combat_end_turn", {"character_id": now})["ended"] == now


def _hp(dnd: Game, char_id: str) -> dict:
    return dnd.read("character_get", {"character_id": char_id})["character"]["hp"]


def test_a_player_heals_with_a_potion_on_their_turn_using_the_action(dnd: Game) -> None:
    ids = _table(dnd)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 6})
    _turn_of(dnd, ids["goblin"])
    before, revision = dnd.state(), dnd.revision
    # Not on another's turn, and never a chosen amount.
    error = dnd.fail("heal", {"target_id": ids["bram"]}, sub=PLAYER)
    assert error["message"] == "it is Goblin's turn, not Ash's"
    error = dnd.fail("heal", {"target_id": ids["bram"], "amount": 9999}, sub=PLAYER)
    assert error["message"].startswith("players heal with a potion of healing (2d4+2")
    # Not as someone else's character.
    error = dnd.fail("heal", {"target_id": ids["bram"], "healer_id": ids["bram"]}, sub=PLAYER)
    assert error["code"] == "authorization_denied"
    assert dnd.state() == before and dnd.revision == revision

    _turn_of(dnd, ids["ash"])
    healed = dnd.write("heal", {"target_id": ids["bram"]}, sub=PLAYER)
    assert healed["source"] == "potion_of_healing"
    assert (healed["healer_id"], healed["healer_name"], healed["target_name"]) == (
        ids["ash"],
        "Ash",
        "Bram",
    )
    assert healed["potion"]["expression"] == "2d4+2"
    assert 4 <= healed["potion"]["total"] <= 10
    assert healed["healed"] == min(6, healed["potion"]["total"])
    assert healed["random_stream_receipt"]["draw_count"] == 2
    # The budget shown in combat_status changed, so the receipt names combat.
    assert healed["receipt"]["changed_scopes"] == [f"character:{ids['bram']}", "combat"]
    assert healed["receipt"]["entity_ids"] == sorted([ids["ash"], ids["bram"]])
    budget = next(
        e["budget"] for e in dnd.read("combat_status")["combat"]["order"] if e["id"] == ids["ash"]
    )
    assert budget["action"] == 0
    # The action is spent: no second potion, no attack.
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 3})
    assert dnd.fail("heal", {"target_id": ids["bram"]}, sub=PLAYER)["message"] == (
        "Ash has no action left this turn"
    )
    assert dnd.fail("attack", {"attacker_id": ids["ash"], "target_id": ids["goblin"]}, sub=PLAYER)[
        "message"
    ] == ("Ash has no action left this turn")


def test_full_hit_points_and_distance_refuse_a_potion_before_anything_is_spent(dnd: Game) -> None:
    ids = _table(dnd)
    _turn_of(dnd, ids["ash"])
    before, revision = dnd.state(), dnd.revision
    error = dnd.fail("heal", {"target_id": ids["bram"]}, sub=PLAYER)
    hp = _hp(dnd, ids["bram"])
    assert error["message"] == f"Bram is already at full hit points ({hp['max']}/{hp['max']})"
    # The GM, too, wastes nothing at full HP.
    assert dnd.fail("heal", {"target_id": ids["bram"], "amount": 5})["message"] == error["message"]
    assert dnd.state() == before and dnd.revision == revision
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 2})
    positions = {e["id"]: e["position"] for e in dnd.read("combat_status")["combat"]["order"]}
    far = [0, positions[ids["bram"]][1]]
    dnd.write("combat_move", {"character_id": ids["ash"], "x": far[0], "y": far[1]}, sub=PLAYER)
    distance = rules.grid_distance(far, positions[ids["bram"]])
    assert dnd.fail("heal", {"target_id": ids["bram"]}, sub=PLAYER)["message"] == (
        f"Bram is {distance} ft away from Ash; a potion is given within 5 ft. Move closer first."
    )


def test_the_gm_heals_any_amount_any_time_and_players_heal_freely_out_of_combat(
    dnd: Game,
) -> None:
    ids = _table(dnd)
    _turn_of(dnd, ids["goblin"])
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 5})
    by_gm = dnd.write("heal", {"target_id": ids["bram"], "amount": 9999})
    assert (by_gm["source"], by_gm["healed"]) == ("gm", 5)
    assert "healer_id" not in by_gm and "random_stream_receipt" not in by_gm
    dnd.write("combat_end")
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 5})
    first = dnd.write("heal", {"target_id": ids["ash"]}, sub=PLAYER)
    assert first["healer_id"] == ids["ash"] and first["healed"] >= 4
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 5})
    # Out of combat there is no action economy: a second potion at once is fine.
    assert dnd.write("heal", {"target_id": ids["ash"]}, sub=PLAYER)["healed"] >= 4


def test_an_unconscious_character_cannot_drink_a_potion(dnd: Game) -> None:
    ids = _table(dnd)
    hp = _hp(dnd, ids["ash"])
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": hp["current"]})
    _turn_of(dnd, ids["ash"])
    assert dnd.fail("heal", {"target_id": ids["ash"]}, sub=PLAYER)["message"] == (
        "Ash cannot give a potion while unconscious"
    )


def test_an_idempotent_retry_of_a_potion_replays_it(dnd: Game) -> None:
    ids = _table(dnd)
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 5})
    _turn_of(dnd, ids["ash"])
    args = {"target_id": ids["ash"], "expected_revision": dnd.revision, "idempotency_key": "p"}
    first = dnd.call("heal", args, sub=PLAYER)
    again = dnd.call("heal", args, sub=PLAYER)
    assert not first.is_error and not again.is_error
    assert again.structured_content == first.structured_content
    assert (first.meta["idempotent_replay"], again.meta["idempotent_replay"]) == (False, True)
    assert _hp(dnd, ids["ash"])["current"] == first.structured_content["hp_after"]


def test_a_goblin_hit_on_a_dying_character_is_a_critical_hit(dnd: Game) -> None:
    ids = _table(dnd)
    hp = _hp(dnd, ids["bram"])
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": hp["current"]})
    struck = None
    for _ in range(8):
        _turn_of(dnd, ids["goblin"])
        result = dnd.write("attack", {"attacker_id": ids["goblin"], "target_id": ids["bram"]})
        dnd.write("combat_end_turn")
        if result["hit"]:
            struck = result
            break
    assert struck is not None, "the goblin never hit"
    # Within 5 ft of an unconscious creature: a critical hit, two death-save failures.
    assert struck["critical"] is True
    assert struck["to_hit"]["advantage_reasons"] == ["Bram is prone", "Bram is unconscious"]
    effect = struck["damage"]["effect"]
    assert (effect["death_save_failures_added"], effect["death_saves"]["failures"]) == (2, 2)
    view = dnd.read("character_get", {"character_id": ids["bram"]})["character"]
    assert view["death_saves"]["failures"] == 2 and "dead" not in view["conditions"]


def test_standing_up_costs_half_the_speed_on_the_characters_own_turn(dnd: Game) -> None:
    ids = _table(dnd)
    assert dnd.fail("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)["message"] == (
        "Ash is not prone"
    )
    dnd.write("condition_add", {"target_id": ids["ash"], "condition": "prone"})
    _turn_of(dnd, ids["goblin"])
    assert dnd.fail("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)["message"] == (
        "it is Goblin's turn, not Ash's"
    )
    assert dnd.fail("stand_up", {"character_id": ids["ash"]}, sub=OTHER)["code"] == (
        "authorization_denied"
    )
    _turn_of(dnd, ids["ash"])
    # A prone attacker: the result says why the roll has disadvantage.
    struck = dnd.write(
        "attack", {"attacker_id": ids["ash"], "target_id": ids["goblin"]}, sub=PLAYER
    )
    assert struck["to_hit"]["disadvantage_reasons"] == ["Ash is prone"]
    assert struck["to_hit"]["mode"] == "disadvantage"
    # Crawling 10 ft west from the party's column costs 20 of Ash's 30 ft.
    row = next(
        e["position"][1]
        for e in dnd.read("combat_status")["combat"]["order"]
        if e["id"] == ids["ash"]
    )
    dnd.write("combat_move", {"character_id": ids["ash"], "x": 3, "y": row}, sub=PLAYER)
    assert dnd.fail("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)["message"] == (
        "Ash needs 15 ft of movement to stand up and has 10 ft left this turn"
    )
    dnd.write("combat_end_turn", sub=PLAYER)
    _turn_of(dnd, ids["ash"])
    stood = dnd.write("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)
    assert (stood["movement_cost"], stood["movement_left"]) == (15, 15)
    assert "prone" not in stood["conditions"]
    assert stood["receipt"]["changed_scopes"] == [f"character:{ids['ash']}", "combat"]


def test_standing_up_outside_combat_is_free_but_not_at_0_hp(dnd: Game) -> None:
    ids = _table(dnd)
    dnd.write("combat_end")
    dnd.write("condition_add", {"target_id": ids["ash"], "condition": "prone"})
    stood = dnd.write("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)
    assert (stood["movement_cost"], stood["movement_left"]) == (0, None)
    assert stood["receipt"]["changed_scopes"] == [f"character:{ids['ash']}"]
    hp = _hp(dnd, ids["ash"])
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": hp["current"]})
    assert dnd.fail("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)["message"] == (
        "Ash cannot stand up while unconscious at 0 HP"
    )
    dnd.write("heal", {"target_id": ids["ash"], "amount": 3})
    dnd.write("condition_add", {"target_id": ids["ash"], "condition": "grappled"})
    assert dnd.fail("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)["message"] == (
        "Ash cannot stand up while grappled"
    )


def test_a_dying_character_makes_one_death_save_on_its_own_turn(dnd: Game, monkeypatch) -> None:
    from domain_servers.common.random_stream import RandomStream

    ids = _table(dnd)
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 12})  # to 0 HP, dying
    _turn_of(dnd, ids["goblin"])
    error = dnd.fail("death_save", {"character_id": ids["ash"]}, sub=PLAYER)
    assert error["message"] == "it is Goblin's turn, not Ash's"
    _turn_of(dnd, ids["ash"])
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 12)  # a success
    first = dnd.write("death_save", {"character_id": ids["ash"]}, sub=PLAYER)
    error = dnd.fail("death_save", {"character_id": ids["ash"]}, sub=PLAYER)
    assert (first["outcome"], error["message"]) == (
        "success", "Ash has already made a death save this turn"
    )  # fmt: skip


def test_a_character_who_dies_on_its_own_turn_passes_the_turn(dnd: Game, monkeypatch) -> None:
    from domain_servers.common.random_stream import RandomStream

    ids = _table(dnd)
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 12})  # to 0 HP
    for _ in range(2):  # each hit at 0 HP is a death-save failure
        dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 1})
    _turn_of(dnd, ids["ash"])
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 5)  # a failed save
    result = dnd.write("death_save", {"character_id": ids["ash"]}, sub=PLAYER)
    status = dnd.read("combat_status")["combat"]
    # The turn passed to the next living combatant.
    assert (result["outcome"], result["current"]) == ("dead", status["current"])
    assert status["current"] in (ids["bram"], ids["goblin"])


def test_the_dead_make_no_checks_or_saves_and_nothing_changes(dnd: Game) -> None:
    ids = _table(dnd)
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 100})  # massive damage: dead
    before, revision = dnd.state(), dnd.revision
    for tool, message in (
        ("ability_check", "Ash is dead and makes no checks"),
        ("saving_throw", "Ash is dead and makes no saves"),
    ):
        error = dnd.fail(tool, {"character_id": ids["ash"], "ability": "wis", "dc": 10}, sub=PLAYER)
        assert (error["code"], error["message"]) == ("invalid_request", message)
    assert dnd.state() == before and dnd.read("campaign_get")["authority_revision"] == revision
    # The living still do.
    assert "success" in dnd.write(
        "ability_check", {"character_id": ids["bram"], "ability": "wis", "dc": 10}, sub=OTHER
    )


def test_a_prone_character_crawls_at_double_cost_until_it_stands_up(dnd: Game) -> None:
    ids = _table(dnd)
    # The tester's repro: knocked to 0 HP, then healed, Ash is conscious but still prone.
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": _hp(dnd, ids["ash"])["current"]})
    dnd.write("heal", {"target_id": ids["ash"], "amount": 3})
    view = dnd.read("character_get", {"character_id": ids["ash"]})["character"]
    assert view["conditions"] == ["prone"]
    _turn_of(dnd, ids["ash"])
    column, row = next(
        e["position"] for e in dnd.read("combat_status")["combat"]["order"] if e["id"] == ids["ash"]
    )
    assert column == 5  # the party's column; columns 0-4 are empty
    # 20 ft crawled costs 40 ft, more than the 30 ft left: refused, nothing spent or moved.
    before, revision = dnd.state(), dnd.revision
    error = dnd.fail("combat_move", {"character_id": ids["ash"], "x": 1, "y": row}, sub=PLAYER)
    assert (error["code"], error["message"]) == (
        "invalid_request",
        "Ash is prone and crawling 20 ft costs 40 ft of movement; Ash has only 30 ft left "
        "this turn (standing up costs half the speed)",
    )
    assert dnd.state() == before and dnd.revision == revision
    crawled = dnd.write("combat_move", {"character_id": ids["ash"], "x": 3, "y": row}, sub=PLAYER)
    assert (crawled["feet"], crawled["crawled"], crawled["movement_cost"]) == (10, True, 20)
    assert crawled["movement_left"] == 10
    error = dnd.fail("combat_move", {"character_id": ids["ash"], "x": 1, "y": row}, sub=PLAYER)
    assert error["message"] == (
        "Ash is prone and crawling 10 ft costs 20 ft of movement; Ash has only 10 ft left "
        "this turn (standing up costs half the speed)"
    )
    crawled = dnd.write("combat_move", {"character_id": ids["ash"], "x": 2, "y": row}, sub=PLAYER)
    assert (crawled["feet"], crawled["movement_cost"], crawled["movement_left"]) == (5, 10, 0)
    assert dnd.fail("combat_move", {"character_id": ids["ash"], "x": 1, "y": row}, sub=PLAYER)[
        "message"
    ] == ("Ash has no movement left this turn")
    view = dnd.read("character_get", {"character_id": ids["ash"]})["character"]
    assert view["conditions"] == ["prone"]
    # Next turn: standing up (15 ft) and walking 15 ft costs the 30 ft speed exactly.
    dnd.write("combat_end_turn", sub=PLAYER)
    _turn_of(dnd, ids["ash"])
    dnd.write("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)
    walked = dnd.write("combat_move", {"character_id": ids["ash"], "x": 5, "y": row}, sub=PLAYER)
    assert (walked["feet"], walked["crawled"], walked["movement_cost"]) == (15, False, 15)
    assert walked["movement_left"] == 0
