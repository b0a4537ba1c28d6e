"""dnd5e: combat_status shows no movement left for a combatant that cannot move (unconscious,
dying, grappled...), as combat_move refuses it; it shows the turn's movement again once the
combatant can move."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def _movement(dnd: Game, char_id: str) -> int:
    order = dnd.read("combat_status")["combat"]["order"]
    return next(e["budget"]["movement"] for e in order if e["id"] == char_id)


def _ash_on_his_turn(dnd: Game, monkeypatch) -> str:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    # Equal d20s: the goblin's DEX 14 beats Ash's 13.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, goblin]})
    return ash


def test_a_dying_combatant_on_its_turn_has_no_movement_left(dnd: Game, monkeypatch) -> None:
    ash = _ash_on_his_turn(dnd, monkeypatch)
    hp = dnd.read("character_get", {"character_id": ash})["character"]["hp"]["current"]
    dnd.write("damage_apply", {"target_id": ash, "amount": hp})
    dnd.write("combat_end_turn")  # the goblin's: Ash is up, dying

    assert (dnd.read("combat_status")["combat"]["current"], _movement(dnd, ash)) == (ash, 0)


def test_a_combatant_revived_on_its_turn_has_its_movement(dnd: Game, monkeypatch) -> None:
    ash = _ash_on_his_turn(dnd, monkeypatch)
    hp = dnd.read("character_get", {"character_id": ash})["character"]["hp"]["current"]
    dnd.write("damage_apply", {"target_id": ash, "amount": hp})
    dnd.write("combat_end_turn")
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 20)

    assert dnd.write("death_save", {"character_id": ash}, sub=PLAYER)["outcome"] == "revived"

    assert _movement(dnd, ash) == 30


def test_a_grappled_combatant_has_no_movement_left(dnd: Game, monkeypatch) -> None:
    ash = _ash_on_his_turn(dnd, monkeypatch)
    dnd.write("combat_end_turn")
    dnd.write("condition_add", {"target_id": ash, "condition": "grappled"})

    assert _movement(dnd, ash) == 0
