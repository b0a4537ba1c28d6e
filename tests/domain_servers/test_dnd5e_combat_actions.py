"""dnd5e: the Dash, Disengage and Dodge actions (SRD 5.1), each spending the action on the
creature's own turn. Dash adds its speed to the turn's movement; Disengage keeps its movement
from provoking opportunity attacks this turn; Dodge, until its next turn starts, gives attacks
against it disadvantage when it can see the attacker and its DEX saves advantage."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import OTHER, PLAYER, Game


def _ash_beside_a_goblin(dnd: Game, monkeypatch) -> tuple[str, str]:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    # Every d20 a 10: the goblin's DEX 14 beats Ash's 13, so it goes first.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, goblin]})
    dnd.write("combat_end_turn")  # the goblin's: Ash is up
    return ash, goblin


def _budget(dnd: Game, char_id: str) -> dict:
    order = dnd.read("combat_status")["combat"]["order"]
    return next(e["budget"] for e in order if e["id"] == char_id)


def test_dash_adds_the_speed_to_the_turns_movement_and_spends_the_action(
    dnd: Game, monkeypatch
) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)

    dashed = dnd.write("combat_action", {"character_id": ash, "action": "dash"}, sub=PLAYER)

    assert (dashed["action"], dashed["character_name"]) == ("dash", "Ash")
    assert (dashed["movement_gained"], dashed["movement_left"]) == (30, 60)
    assert (_budget(dnd, ash)["action"], _budget(dnd, ash)["dashed"]) == (0, 1)
    moved = dnd.write("combat_move", {"character_id": ash, "x": 0, "y": 5}, sub=PLAYER)
    assert moved["movement_left"] == 35
    refused = dnd.fail("attack", {"attacker_id": ash, "target_id": goblin}, sub=PLAYER)
    assert refused["message"] == "Ash has no action left this turn"


def test_a_dash_is_shown_in_the_budget_until_the_turn_ends(dnd: Game, monkeypatch) -> None:
    ash, _goblin = _ash_beside_a_goblin(dnd, monkeypatch)
    assert "dashed" not in _budget(dnd, ash)

    dnd.write("combat_action", {"character_id": ash, "action": "dash"}, sub=PLAYER)
    dnd.write("combat_end_turn", {}, sub=PLAYER)
    dnd.write("combat_end_turn")  # the goblin's: Ash is up again

    assert "dashed" not in _budget(dnd, ash)


def test_disengaging_moves_out_of_reach_without_provoking(dnd: Game, monkeypatch) -> None:
    ash, _goblin = _ash_beside_a_goblin(dnd, monkeypatch)

    dnd.write("combat_action", {"character_id": ash, "action": "disengage"}, sub=PLAYER)
    moved = dnd.write("combat_move", {"character_id": ash, "x": 3, "y": 0}, sub=PLAYER)

    assert "opportunity_attacks" not in moved
    assert _budget(dnd, ash)["action"] == 0


def test_attacks_on_a_dodging_creature_have_disadvantage_until_its_next_turn(
    dnd: Game, monkeypatch
) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)
    dnd.write("combat_action", {"character_id": ash, "action": "dodge"}, sub=PLAYER)
    dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)  # round 2: the goblin's

    swung = dnd.write("attack", {"attacker_id": goblin, "target_id": ash})

    assert swung["to_hit"]["disadvantage_reasons"] == ["Ash is dodging"]
    assert swung["to_hit"]["mode"] == "disadvantage"
    dnd.write("combat_end_turn")  # Ash's turn starts: the Dodge is over
    assert "dodging" not in _budget(dnd, ash)
    dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)
    again = dnd.write("attack", {"attacker_id": goblin, "target_id": ash})
    assert (again["to_hit"]["disadvantage_reasons"], again["to_hit"]["mode"]) == ([], "normal")


def test_a_dodging_creature_makes_dex_saves_with_advantage(dnd: Game, monkeypatch) -> None:
    ash, _goblin = _ash_beside_a_goblin(dnd, monkeypatch)
    dnd.write("combat_action", {"character_id": ash, "action": "dodge"}, sub=PLAYER)

    dex = dnd.write("saving_throw", {"character_id": ash, "ability": "dex", "dc": 12})
    con = dnd.write("saving_throw", {"character_id": ash, "ability": "con", "dc": 12})

    assert (dex["mode"], dex["advantage_reasons"]) == ("advantage", ["Ash is dodging"])
    assert con["mode"] == "normal" and "advantage_reasons" not in con


def test_a_dodger_who_cannot_see_or_act_loses_the_benefit(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)
    dnd.write("combat_action", {"character_id": ash, "action": "dodge"}, sub=PLAYER)
    dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)

    dnd.write("condition_add", {"target_id": ash, "condition": "blinded"})
    unseen = dnd.write("attack", {"attacker_id": goblin, "target_id": ash})
    assert unseen["to_hit"]["disadvantage_reasons"] == []
    dnd.write("condition_remove", {"target_id": ash, "condition": "blinded"})
    dnd.write("condition_add", {"target_id": ash, "condition": "grappled"})  # speed 0
    held = dnd.write("attack", {"attacker_id": goblin, "target_id": ash, "as_reaction": True})
    assert held["to_hit"]["disadvantage_reasons"] == []


def test_an_action_is_taken_only_on_ones_own_turn_with_the_action_left(
    dnd: Game, monkeypatch
) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)

    theirs = dnd.fail("combat_action", {"character_id": goblin, "action": "dodge"})
    assert theirs["message"] == "it is Ash's turn, not Goblin's"
    foreign = dnd.fail("combat_action", {"character_id": ash, "action": "dash"}, sub=OTHER)
    assert foreign["code"] == "authorization_denied"
    dnd.write("attack", {"attacker_id": ash, "target_id": goblin}, sub=PLAYER)
    spent = dnd.fail("combat_action", {"character_id": ash, "action": "dash"}, sub=PLAYER)
    assert spent["message"] == "Ash has no action left this turn"
    assert _budget(dnd, ash)["movement"] == 30


def test_outside_combat_there_is_no_action_to_take(dnd: Game) -> None:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    dnd.write("phase_set", {"phase": "play"})

    refused = dnd.fail("combat_action", {"character_id": ash["character"]["id"], "action": "dash"})

    assert refused["code"] == "phase_denied"


def test_a_dodge_lost_to_a_grapple_does_not_come_back_when_it_breaks_free(
    dnd: Game, monkeypatch
) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)
    dnd.write("combat_action", {"character_id": ash, "action": "dodge"}, sub=PLAYER)
    dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)

    dnd.write("condition_add", {"target_id": ash, "condition": "grappled"})  # speed 0
    dnd.write("condition_remove", {"target_id": ash, "condition": "grappled"})
    swung = dnd.write("attack", {"attacker_id": goblin, "target_id": ash})

    assert (swung["to_hit"]["disadvantage_reasons"], swung["to_hit"]["mode"]) == ([], "normal")
    assert "dodging" not in _budget(dnd, ash)


def test_a_dodge_lost_to_unconsciousness_does_not_come_back_when_healed(
    dnd: Game, monkeypatch
) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)
    dnd.write("combat_action", {"character_id": ash, "action": "dodge"}, sub=PLAYER)
    dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)

    dnd.write("damage_apply", {"target_id": ash, "amount": 12})  # 0 HP: unconscious
    dnd.write("heal", {"target_id": ash, "amount": 5})
    saved = dnd.write("saving_throw", {"character_id": ash, "ability": "dex", "dc": 12})

    assert saved["mode"] == "normal" and "advantage_reasons" not in saved


def test_an_attack_that_drops_a_dodger_to_0_hp_ends_its_dodge(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)
    dnd.write("damage_apply", {"target_id": ash, "amount": 11})  # 1 HP of 12 left
    dnd.write("combat_action", {"character_id": ash, "action": "dodge"}, sub=PLAYER)
    dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)
    # A natural 20 through the disadvantage, and 1s on the damage dice: 4 damage.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 20 if high == 20 else 1)

    dropped = dnd.write("attack", {"attacker_id": goblin, "target_id": ash})

    assert dropped["to_hit"]["disadvantage_reasons"] == ["Ash is dodging"]
    assert dropped["damage"]["effect"]["dropped_to_zero"] is True
    # Unconscious, it is incapacitated: the Dodge is over, and waking does not bring it back.
    assert "dodging" not in _budget(dnd, ash)
    dnd.write("heal", {"target_id": ash, "amount": 5})
    again = dnd.write("attack", {"attacker_id": goblin, "target_id": ash, "as_reaction": True})
    assert again["to_hit"]["disadvantage_reasons"] == []
