"""dnd5e: a rogue's Sneak Attack (SRD 5.1): once per turn, a hit with a finesse or ranged
weapon deals an extra 1d6 per two rogue levels (rounded up) when the attack has advantage,
or when another enemy of the target stands within 5 ft of it and the attack has no
disadvantage."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import GM, PLAYER, Game


def _scripted(monkeypatch, *values: int) -> None:
    rolls = iter(values)
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: next(rolls))


def _pc(dnd: Game, name: str, template: str, level: int) -> str:
    made = dnd.write(
        "character_create", {"name": name, "template": template, "level": level}, sub=PLAYER
    )
    return made["character"]["id"]


def _ogre_hp(dnd: Game, ogre: str) -> int:
    return dnd.read("character_get", {"character_id": ogre}, sub=GM)["character"]["hp"]["current"]


def test_a_rogue_beside_an_ally_adds_sneak_attack_dice(dnd: Game, monkeypatch) -> None:
    rin = _pc(dnd, "Rin", "rogue", 3)
    ash = _pc(dnd, "Ash", "fighter", 1)
    dnd.write("phase_set", {"phase": "play"})
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    # Initiative in id order (ogre, Rin, Ash): all 10, so Rin (DEX 15) goes first, then Ash;
    # both stand beside the ogre. Rin's d20 12 hits AC 11; every damage die rolls 3.
    _scripted(monkeypatch, 10, 10, 10, 12, 3, 3, 3)
    started = dnd.write("combat_start", {"participant_ids": [rin, ash, ogre]})
    assert started["combat"]["current"] == rin

    hit = dnd.write("attack", {"attacker_id": rin, "target_id": ogre}, sub=PLAYER)

    # Shortsword 1d6 + DEX 2, and Sneak Attack 2d6 at 3rd level: 3 + 2 + 3 + 3.
    assert (hit["hit"], hit["damage"]["total"], hit["sneak_attack"]) == (True, 11, "2d6")
    assert _ogre_hp(dnd, ogre) == 48


def test_a_rogue_alone_without_advantage_deals_weapon_damage_only(dnd: Game, monkeypatch) -> None:
    rin = _pc(dnd, "Rin", "rogue", 3)
    dnd.write("phase_set", {"phase": "play"})
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    _scripted(monkeypatch, 10, 10, 12, 3)
    dnd.write("combat_start", {"participant_ids": [rin, ogre]})

    hit = dnd.write("attack", {"attacker_id": rin, "target_id": ogre}, sub=PLAYER)

    assert (hit["hit"], hit["damage"]["total"], "sneak_attack" in hit) == (True, 5, False)
    assert _ogre_hp(dnd, ogre) == 54


def test_a_rogue_with_advantage_sneak_attacks_out_of_combat(dnd: Game, monkeypatch) -> None:
    rin = _pc(dnd, "Rin", "rogue", 5)
    dnd.write("phase_set", {"phase": "play"})
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    # Advantage: d20s 4 and 12 keep 12; 1d6 + 3d6 at 5th level, all 2s.
    _scripted(monkeypatch, 4, 12, 2, 2, 2, 2)

    hit = dnd.write(
        "attack", {"attacker_id": rin, "target_id": ogre, "advantage": True}, sub=PLAYER
    )

    assert (hit["damage"]["total"], hit["sneak_attack"]) == (10, "3d6")


def test_sneak_attack_is_once_per_turn(dnd: Game, monkeypatch) -> None:
    rin = _pc(dnd, "Rin", "rogue", 3)
    ash = _pc(dnd, "Ash", "fighter", 1)
    dnd.write("phase_set", {"phase": "play"})
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    # As above; then a second hit the same turn (Rin's reaction): d20 12, its d6 a 3.
    _scripted(monkeypatch, 10, 10, 10, 12, 3, 3, 3, 12, 3)
    dnd.write("combat_start", {"participant_ids": [rin, ash, ogre]})
    dnd.write("attack", {"attacker_id": rin, "target_id": ogre}, sub=PLAYER)

    again = dnd.write(
        "attack", {"attacker_id": rin, "target_id": ogre, "as_reaction": True}, sub=PLAYER
    )

    assert (again["damage"]["total"], "sneak_attack" in again) == (5, False)
    assert _ogre_hp(dnd, ogre) == 43
