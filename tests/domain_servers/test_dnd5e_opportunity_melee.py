"""dnd5e: an opportunity attack is one melee attack (SRD 5.1): a creature whose reach a mover
leaves strikes with a weapon that reaches it, never shoots a bow at it."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def _ash_leaves_a_goblins_reach(dnd: Game, monkeypatch) -> tuple[str, str]:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    # Equal d20s: the goblin's DEX 14 beats Ash's 13, so it goes first.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, goblin]})
    dnd.write("combat_end_turn")  # the goblin's: Ash is up
    moved = dnd.write("combat_move", {"character_id": ash, "x": 3, "y": 0}, sub=PLAYER)
    assert moved["opportunity_attacks"] == [{"attacker_id": goblin, "attacker_name": "Goblin"}]
    return ash, goblin


def test_an_opportunity_attack_with_a_shortbow_is_refused_and_spends_nothing(
    dnd: Game, monkeypatch
) -> None:
    ash, goblin = _ash_leaves_a_goblins_reach(dnd, monkeypatch)
    before = dnd.read("combat_status")["combat"]

    refused = dnd.fail(
        "attack",
        {"attacker_id": goblin, "target_id": ash, "attack_name": "Shortbow", "as_reaction": True},
    )

    assert refused["message"] == (
        "an opportunity attack is a melee attack: Shortbow has a range of 80/320 ft; "
        "Goblin makes it with Scimitar"
    )
    assert dnd.read("combat_status")["combat"] == before


def test_the_opportunity_attack_is_made_with_the_scimitar(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_leaves_a_goblins_reach(dnd, monkeypatch)

    hit = dnd.write(
        "attack",
        {"attacker_id": goblin, "target_id": ash, "attack_name": "Scimitar", "as_reaction": True},
    )

    assert (hit["attack"], hit["range"]["kind"], hit["opportunity_attack"]) == (
        "Scimitar",
        "melee",
        True,
    )
