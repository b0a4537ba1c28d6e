"""dnd5e: a fighter's Extra Attack (SRD 5.1): from 5th level the Attack action makes two
attacks (three from 11th, four at 20th); other characters and lower levels make one."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import PLAYER, Game


def _fighter_facing_an_ogre(dnd: Game, monkeypatch, level: int) -> tuple[str, str]:
    ash = dnd.write(
        "character_create", {"name": "Ash", "template": "fighter", "level": level}, sub=PLAYER
    )["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    # Every die rolls 6: equal initiative dice, Ash's DEX 13 beats the ogre's 8, so Ash goes
    # first; 6 + STR 2 + proficiency hits the ogre's AC 11 and deals 6 + 2.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 6)
    started = dnd.write("combat_start", {"participant_ids": [ash, ogre]})
    assert started["combat"]["current"] == ash
    return ash, ogre


def test_a_5th_level_fighter_attacks_twice_with_one_action(dnd: Game, monkeypatch) -> None:
    ash, ogre = _fighter_facing_an_ogre(dnd, monkeypatch, level=5)

    first = dnd.write("attack", {"attacker_id": ash, "target_id": ogre}, sub=PLAYER)
    second = dnd.write("attack", {"attacker_id": ash, "target_id": ogre}, sub=PLAYER)
    third = dnd.fail("attack", {"attacker_id": ash, "target_id": ogre}, sub=PLAYER)

    assert (first["hit"], second["hit"]) == (True, True)
    assert third["message"] == "Ash has no action left this turn"
    assert dnd.read("character_get", {"character_id": ogre})["character"]["hp"]["current"] == 43


def test_a_4th_level_fighter_attacks_once(dnd: Game, monkeypatch) -> None:
    ash, ogre = _fighter_facing_an_ogre(dnd, monkeypatch, level=4)

    dnd.write("attack", {"attacker_id": ash, "target_id": ogre}, sub=PLAYER)
    again = dnd.fail("attack", {"attacker_id": ash, "target_id": ogre}, sub=PLAYER)

    assert again["message"] == "Ash has no action left this turn"


def test_extra_attacks_by_class_and_level() -> None:
    def made(template: str | None, level: int) -> int:
        return rules.attacks_per_action({"template": template, "level": level, "kind": "pc"})

    assert [made("fighter", lv) for lv in (1, 4, 5, 10, 11, 19, 20)] == [1, 1, 2, 2, 3, 3, 4]
    assert [made(t, 20) for t in ("cleric", "rogue", "wizard", None)] == [1, 1, 1, 1]
