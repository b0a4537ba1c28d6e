"""dnd5e: a move out of a hostile creature's reach names the creatures that could make an
opportunity attack (able to act, reaction unspent); the GM calls one as the attacker's
reaction, measured from where the mover left its reach. Nothing is rolled by the move."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def _ash_beside_a_goblin(dnd: Game, monkeypatch) -> tuple[str, str]:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    # Equal d20s: the goblin's DEX 14 beats Ash's 13, so it goes first.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    positions = {
        e["id"]: e["position"]
        for e in dnd.write("combat_start", {"participant_ids": [ash, goblin]})["combat"]["order"]
    }
    assert (positions[ash], positions[goblin]) == ([5, 0], [6, 0])
    dnd.write("combat_end_turn")  # the goblin's: Ash is up
    return ash, goblin


def test_leaving_a_goblins_reach_names_it_for_an_opportunity_attack(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)

    moved = dnd.write("combat_move", {"character_id": ash, "x": 3, "y": 0}, sub=PLAYER)

    assert moved["opportunity_attacks"] == [{"attacker_id": goblin, "attacker_name": "Goblin"}]
    # The move rolls nothing: the GM calls the attack.
    assert "random_stream_receipt" not in moved


def test_a_move_within_the_goblins_reach_provokes_nothing(dnd: Game, monkeypatch) -> None:
    ash, _goblin = _ash_beside_a_goblin(dnd, monkeypatch)

    moved = dnd.write("combat_move", {"character_id": ash, "x": 5, "y": 1}, sub=PLAYER)

    assert "opportunity_attacks" not in moved


def test_a_goblin_that_cannot_act_makes_no_opportunity_attack(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)
    dnd.write("condition_add", {"target_id": goblin, "condition": "stunned"})

    moved = dnd.write("combat_move", {"character_id": ash, "x": 3, "y": 0}, sub=PLAYER)

    assert "opportunity_attacks" not in moved


def test_the_opportunity_attack_is_the_goblins_reaction_from_where_ash_left(
    dnd: Game, monkeypatch
) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)
    dnd.write("combat_move", {"character_id": ash, "x": 3, "y": 0}, sub=PLAYER)

    hit = dnd.write("attack", {"attacker_id": goblin, "target_id": ash, "as_reaction": True})

    assert (hit["range"]["distance_ft"], hit["range"]["kind"]) == (5, "melee")
    assert hit["opportunity_attack"] is True
    again = dnd.fail("attack", {"attacker_id": goblin, "target_id": ash, "as_reaction": True})
    assert again["message"] == "Goblin has no reaction left this turn"
    # Spent: a second move out of its reach provokes nothing more.
    dnd.write("combat_move", {"character_id": ash, "x": 5, "y": 1}, sub=PLAYER)
    moved = dnd.write("combat_move", {"character_id": ash, "x": 4, "y": 1}, sub=PLAYER)
    assert "opportunity_attacks" not in moved


def test_once_the_turn_ends_the_goblin_attacks_from_where_ash_stands(
    dnd: Game, monkeypatch
) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)
    dnd.write("combat_move", {"character_id": ash, "x": 3, "y": 0}, sub=PLAYER)
    dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)

    late = dnd.fail(
        "attack",
        {"attacker_id": goblin, "target_id": ash, "attack_name": "Scimitar", "as_reaction": True},
    )

    assert late["message"].startswith("Ash is 15 ft away from Goblin")
