"""Finesse weapons (SRD 5.1): an attack with one uses the wielder's choice of STR or DEX for
both the attack and the damage roll (the rules choose the higher), and a rogue's Sneak Attack
needs a finesse or a ranged weapon, whichever ability the attack uses."""

from __future__ import annotations

from typing import Any

from domain_servers.common.random_stream import RandomStream
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import GM, PLAYER, Game
from tests.domain_servers.test_dnd5e_rules import pc

STRONG = {"str": 16, "dex": 14, "con": 12, "int": 10, "wis": 10, "cha": 10}
NIMBLE = {"str": 10, "dex": 16, "con": 12, "int": 10, "wis": 10, "cha": 10}


def _scripted(monkeypatch, *values: int) -> None:
    rolls = iter(values)
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: next(rolls))


def _weapon(name: str, ability: str, damage: str, damage_type: str) -> dict[str, Any]:
    return {
        "name": name,
        "ability": ability,
        "proficient": True,
        "damage": damage,
        "damage_type": damage_type,
    }


def _armed(dnd: Game, template: str, abilities: dict[str, int], *attacks: dict) -> str:
    made = dnd.write(
        "character_create",
        {"name": "Rin", "template": template, "abilities": abilities, "attacks": list(attacks)},
        sub=PLAYER,
    )
    return made["character"]["id"]


def _sheet(dnd: Game, char_id: str) -> list[dict[str, Any]]:
    view = dnd.read("character_get", {"character_id": char_id}, sub=PLAYER)["character"]
    return view["sheet"]["attacks"]


def _ogre(dnd: Game) -> str:
    dnd.write("phase_set", {"phase": "play"})
    return dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]


def test_a_finesse_weapon_listed_with_str_attacks_and_hurts_with_the_higher_dex() -> None:
    char = pc(abilities=NIMBLE)
    dagger = _weapon("Dagger", "str", "1d4", "piercing")
    # DEX 16 (+3) beats STR 10 (+0): +3 and proficiency 2 to hit, +3 to damage.
    assert (rules.attack_bonus(char, dagger), rules.damage_expression(char, dagger)) == (
        5, "1d4+3",
    )  # fmt: skip


def test_a_finesse_weapon_listed_with_dex_uses_the_higher_str() -> None:
    char = pc(abilities=STRONG)
    rapier = _weapon("Rapier", "dex", "1d8", "piercing")
    assert (rules.attack_bonus(char, rapier), rules.damage_expression(char, rapier)) == (
        5, "1d8+3",
    )  # fmt: skip


def test_a_weapon_without_finesse_keeps_its_own_ability() -> None:
    char = pc(abilities=NIMBLE)
    mace = _weapon("Mace", "str", "1d6", "bludgeoning")
    assert (rules.attack_bonus(char, mace), rules.damage_expression(char, mace)) == (2, "1d6")


def test_the_sheet_shows_the_finesse_weapon_as_the_attack_rolls_it(dnd: Game) -> None:
    rin = _armed(
        dnd,
        "fighter",
        NIMBLE,
        _weapon("Shortsword", "str", "1d6", "piercing"),
        _weapon("Longsword", "str", "1d8", "slashing"),
    )
    assert _sheet(dnd, rin)[:2] == [
        {"name": "Shortsword", "to_hit": 5, "damage": "1d6+3", "damage_type": "piercing"},
        {"name": "Longsword", "to_hit": 2, "damage": "1d8", "damage_type": "slashing"},
    ]


def test_a_strong_rogue_sneak_attacks_with_a_rapier_using_str(dnd: Game, monkeypatch) -> None:
    rin = _armed(dnd, "rogue", STRONG, _weapon("Rapier", "str", "1d8", "piercing"))
    ogre = _ogre(dnd)
    # Advantage: d20s 4 and 15 keep 15, +5 hits AC 11; the d8 rolls 4, the Sneak Attack d6 2.
    _scripted(monkeypatch, 4, 15, 4, 2)

    hit = dnd.write(
        "attack", {"attacker_id": rin, "target_id": ogre, "advantage": True}, sub=PLAYER
    )

    assert (hit["to_hit"]["bonus"], hit["to_hit"]["total"], hit["hit"]) == (5, 20, True)
    # 4 + STR 3 + 2: the Sneak Attack die rides on the STR attack.
    assert (hit["sneak_attack"], hit["damage"]["total"]) == ("1d6", 9)
    ogre_hp = dnd.read("character_get", {"character_id": ogre}, sub=GM)["character"]["hp"]
    assert ogre_hp["current"] == 50


def test_a_rogue_with_a_heavy_weapon_gets_no_sneak_attack(dnd: Game, monkeypatch) -> None:
    rin = _armed(dnd, "rogue", STRONG, _weapon("Greataxe", "str", "1d12", "slashing"))
    ogre = _ogre(dnd)
    _scripted(monkeypatch, 4, 15, 6)

    hit = dnd.write(
        "attack", {"attacker_id": rin, "target_id": ogre, "advantage": True}, sub=PLAYER
    )

    assert (hit["hit"], hit["damage"]["total"], "sneak_attack" in hit) == (True, 9, False)
