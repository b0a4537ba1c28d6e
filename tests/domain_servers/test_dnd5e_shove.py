"""dnd5e: shoving a creature (SRD 5.1) replaces one attack of the Attack action with a contest:
the shover's Strength (Athletics) against the target's Strength (Athletics) or Dexterity
(Acrobatics), whichever is better; on a win the target is knocked prone or pushed 5 ft away
(a tie changes nothing). The target must be within 5 ft."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def _ash_beside_a_goblin(dnd: Game, monkeypatch, *rolls: int) -> tuple[str, str]:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, goblin]})  # the goblin first
    dnd.write("combat_end_turn")
    values = iter(rolls)
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: next(values))
    return ash, goblin


def _shove(dnd: Game, ash: str, goblin: str, **more) -> dict:
    return dnd.write(
        "combat_action",
        {"character_id": ash, "action": "shove", "target_id": goblin, **more},
        sub=PLAYER,
    )


def test_a_won_shove_knocks_the_goblin_prone(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch, 10, 10)

    shoved = _shove(dnd, ash, goblin)

    # Ash's Athletics 10 + 2 + 2 = 14 against the goblin's better Acrobatics 10 + 2 = 12.
    assert (shoved["contest"]["shover_total"], shoved["contest"]["target_total"]) == (14, 12)
    assert shoved["contest"]["target_skill"] == "acrobatics"
    assert (shoved["success"], shoved["effect"]) == (True, "prone")
    state = dnd.state()
    assert "prone" in state["characters"][goblin]["conditions"]
    assert state["combat"]["budgets"][ash]["action"] == 0


def test_a_won_shove_can_push_the_goblin_5_ft_away(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch, 10, 10)

    shoved = _shove(dnd, ash, goblin, shove="push")

    assert (shoved["effect"], shoved["to"]) == ("pushed", [7, 0])
    assert dnd.state()["combat"]["positions"][goblin] == [7, 0]


def test_a_tie_changes_nothing(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch, 8, 10)

    shoved = _shove(dnd, ash, goblin)

    assert (shoved["contest"]["shover_total"], shoved["contest"]["target_total"]) == (12, 12)
    assert (shoved["success"], shoved["effect"]) == (False, None)
    assert "prone" not in dnd.state()["characters"][goblin]["conditions"]


def test_a_shove_reaches_5_ft(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch)
    dnd.write("combat_move", {"character_id": ash, "x": 3, "y": 0}, sub=PLAYER)

    refused = dnd.fail(
        "combat_action", {"character_id": ash, "action": "shove", "target_id": goblin}, PLAYER
    )

    assert refused["message"] == "Goblin is 15 ft away from Ash; a shove reaches 5 ft"


def test_a_creature_outside_the_fight_cannot_be_shoved(dnd: Game, monkeypatch) -> None:
    ash, _goblin = _ash_beside_a_goblin(dnd, monkeypatch, 10, 10)
    away = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]

    refused = dnd.fail(
        "combat_action",
        {"character_id": ash, "action": "shove", "target_id": away, "shove": "push"},
        sub=PLAYER,
    )

    assert (refused["code"], refused["message"]) == (
        "invalid_request",
        "Goblin 2 is not in this combat",
    )
    assert dnd.state()["combat"]["budgets"][ash]["action"] == 1


def test_a_goblin_cannot_shove_an_ogre_two_sizes_larger(dnd: Game, monkeypatch) -> None:
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [goblin, ogre]})  # the goblin's DEX first

    refused = dnd.fail(
        "combat_action", {"character_id": goblin, "action": "shove", "target_id": ogre}
    )

    assert refused["message"] == (
        "Ogre is Large, more than one size larger than Goblin (Small): too big to shove"
    )


def test_a_fighter_can_shove_an_ogre_one_size_larger(dnd: Game, monkeypatch) -> None:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, ogre]})  # Ash's DEX first

    shoved = _shove(dnd, ash, ogre)

    assert shoved["target_id"] == ogre


def test_with_extra_attack_a_shove_and_a_strike_make_one_attack_action(
    dnd: Game, monkeypatch
) -> None:
    ash = dnd.write(
        "character_create", {"name": "Ash", "template": "fighter", "level": 5}, sub=PLAYER
    )["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, ogre]})  # Ash's DEX first

    _shove(dnd, ash, ogre)
    dnd.write("attack", {"attacker_id": ash, "target_id": ogre}, sub=PLAYER)
    refused = dnd.fail("attack", {"attacker_id": ash, "target_id": ogre}, sub=PLAYER)

    assert refused["message"] == "Ash has no action left this turn"
    dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)
    dnd.write("combat_end_turn")
    dnd.write("attack", {"attacker_id": ash, "target_id": ogre}, sub=PLAYER)
    second = _shove(dnd, ash, ogre)
    assert second["target_id"] == ogre
    assert dnd.state()["combat"]["budgets"][ash]["attacks_left"] == 0


def test_a_won_shove_on_a_prone_creature_says_it_already_is(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_beside_a_goblin(dnd, monkeypatch, 10, 10)
    dnd.write("condition_add", {"target_id": goblin, "condition": "prone"})

    shoved = _shove(dnd, ash, goblin)

    assert (shoved["success"], shoved["effect"], shoved["blocked"]) == (
        True,
        None,
        "Goblin is already prone",
    )
