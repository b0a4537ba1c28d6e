"""A player character's sheet in its view: ability modifiers, each attack's to-hit bonus and
damage as the attack tool rolls them, and the spells its class casts. Worked out by the rules
the tools use, so the card a player reads never disagrees with the roll; a monster's view for
players stays as bare as it was."""

from __future__ import annotations

from typing import Any

import pytest

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game

FIGHTER_SHEET = {
    "ability_modifiers": {"str": 2, "dex": 1, "con": 2, "int": -1, "wis": 1, "cha": 0},
    "attacks": [
        {"name": "Longsword", "to_hit": 4, "damage": "1d8+2", "damage_type": "slashing"},
        {"name": "Unarmed Strike", "to_hit": 4, "damage": "3", "damage_type": "bludgeoning"},
    ],
    "spells": [],
}


def _sheet(dnd: Game, char_id: str, sub: str = GM) -> dict[str, Any]:
    return dnd.read("character_get", {"character_id": char_id}, sub=sub)["character"]["sheet"]


def _create(dnd: Game, args: dict[str, Any], sub: str = PLAYER) -> str:
    return dnd.write("character_create", args, sub=sub)["character"]["id"]


def test_a_fighters_sheet_shows_its_modifiers_and_its_longsword_to_every_reader(
    dnd: Game,
) -> None:
    ash = _create(dnd, {"name": "Ash", "template": "fighter"})

    assert [_sheet(dnd, ash, sub) for sub in (GM, PLAYER, OTHER)] == [FIGHTER_SHEET] * 3


def test_the_sheet_follows_level_proficiency_cantrip_dice_and_the_attacks_given(
    dnd: Game,
) -> None:
    wren = _create(dnd, {"name": "Wren", "template": "wizard", "level": 5})
    odd = _create(
        dnd,
        {
            "name": "Odd",
            "abilities": {"str": 8, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10},
            "attacks": [
                {"name": "Club", "ability": "str", "damage": "1d4", "damage_type": "bludgeoning"},
                {
                    "name": "Sling",
                    "ability": "dex",
                    "proficient": True,
                    "damage": "1d4",
                    "damage_type": "bludgeoning",
                    "range": 30,
                    "long_range": 120,
                },
            ],
        },
    )

    # A 5th-level wizard: INT 15 (+2) and proficiency +3; Fire Bolt has grown to two dice and,
    # a spell, adds no modifier to its damage.
    assert _sheet(dnd, wren)["attacks"] == [
        {"name": "Fire Bolt", "to_hit": 5, "damage": "2d10", "damage_type": "fire"},
        # STR 8 (-1), proficient: 1 - 1 damage.
        {"name": "Unarmed Strike", "to_hit": 2, "damage": "0", "damage_type": "bludgeoning"},
    ]
    # STR 8 (-1) without proficiency; DEX 10 (+0) with it: no "+0" on the dice.
    assert _sheet(dnd, odd, PLAYER)["attacks"] == [
        {"name": "Club", "to_hit": -1, "damage": "1d4-1", "damage_type": "bludgeoning"},
        {"name": "Sling", "to_hit": 2, "damage": "1d4", "damage_type": "bludgeoning"},
        {"name": "Unarmed Strike", "to_hit": 1, "damage": "0", "damage_type": "bludgeoning"},
    ]
    assert _sheet(dnd, odd)["ability_modifiers"] == {
        "str": -1, "dex": 0, "con": 0, "int": 0, "wis": 0, "cha": 0,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("template", "spells"),
    [
        (
            "cleric",
            [
                {"key": "sacred_flame", "name": "Sacred Flame", "level": 0, "casting": "action",
                 "range": 60, "touch": False,
                 "concentration": False, "targets": 1},
                {"key": "bless", "name": "Bless", "level": 1, "casting": "action",
                 "range": 30, "touch": False,
                 "concentration": True, "targets": 3},
                {"key": "cure_wounds", "name": "Cure Wounds", "level": 1, "casting": "action",
                 "range": 5, "touch": True,
                 "concentration": False, "targets": 1},
                {"key": "healing_word", "name": "Healing Word", "level": 1,
                 "casting": "bonus_action", "range": 60, "touch": False,
                 "concentration": False, "targets": 1},
                {"key": "shield_of_faith", "name": "Shield of Faith", "level": 1,
                 "casting": "bonus_action", "range": 60, "touch": False,
                 "concentration": True, "targets": 1},
            ],
        ),
        (
            "wizard",
            [
                {"key": "fire_bolt", "name": "Fire Bolt", "level": 0, "casting": "action",
                 "range": 120, "touch": False,
                 "concentration": False, "targets": 1},
                {"key": "magic_missile", "name": "Magic Missile", "level": 1,
                 "casting": "action", "range": 120, "touch": False,
                 "concentration": False, "targets": 1},
            ],
        ),
        ("fighter", []),
        ("rogue", []),
    ],
)  # fmt: skip
def test_the_sheet_lists_the_spells_of_the_characters_class(
    dnd: Game, template: str, spells: list[dict[str, Any]]
) -> None:
    ash = _create(dnd, {"name": "Ash", "template": template})

    assert [_sheet(dnd, ash, sub)["spells"] for sub in (GM, PLAYER, OTHER)] == [spells] * 3


@pytest.mark.parametrize("template", ["cleric", "wizard"])
def test_every_spell_the_sheet_lists_can_be_cast(dnd: Game, template: str) -> None:
    # Third level: a slot for each level-1 spell listed (a cleric lists four).
    ash = _create(dnd, {"name": "Ash", "template": template, "level": 3})
    dnd.write("phase_set", {"phase": "play"})
    dnd.write("damage_apply", {"target_id": ash, "amount": 3})
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    listed = _sheet(dnd, ash)["spells"]

    cast = []
    for spell in listed:
        # A healing spell mends Ash; a harmful one is aimed at the ogre, which outlasts them all.
        target = ash if spell["key"] in ("cure_wounds", "healing_word") else ogre
        args = {"caster_id": ash, "target_id": target, "spell": spell["key"]}
        cast.append(dnd.write("spell_cast", args, sub=PLAYER)["spell"])
        dnd.write("damage_apply", {"target_id": ash, "amount": 3})

    assert cast == [spell["key"] for spell in listed]


@pytest.mark.parametrize("template", ["fighter", "rogue", "wizard", "cleric"])
def test_the_to_hit_and_damage_shown_are_what_an_attack_rolls(
    dnd: Game, monkeypatch, template: str
) -> None:
    ash = _create(dnd, {"name": "Ash", "template": template, "level": 5})
    dummy = _create(dnd, {"name": "Dummy", "template": "fighter", "ac": 5, "max_hp": 99}, GM)
    dnd.write("phase_set", {"phase": "play"})
    shown = _sheet(dnd, ash, PLAYER)["attacks"][0]
    # Every die rolls 6: a hit on AC 5 for all, and never a critical.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 6)

    made = dnd.write("attack", {"attacker_id": ash, "target_id": dummy}, sub=PLAYER)

    assert (made["attack"], made["to_hit"]["bonus"], made["damage"]["expression"]) == (
        shown["name"], shown["to_hit"], shown["damage"],
    )  # fmt: skip


def test_a_monsters_view_for_players_carries_no_sheet(dnd: Game) -> None:
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]

    for sub in (PLAYER, OTHER):
        view = dnd.read("character_get", {"character_id": goblin}, sub=sub)["character"]
        assert sorted(view) == ["conditions", "id", "kind", "monster_key", "name", "status"]


def test_reading_a_sheet_stores_nothing(dnd: Game) -> None:
    ash = _create(dnd, {"name": "Ash", "template": "cleric"})
    before, revision = dnd.state(), dnd.revision

    assert _sheet(dnd, ash, PLAYER)["attacks"][0]["name"] == "Mace"
    assert (dnd.state(), dnd.revision) == (before, revision)
    assert "sheet" not in before["characters"][ash]


def test_character_gets_output_schema_describes_the_sheet(dnd: Game) -> None:
    from domain_servers.dnd5e.tools import tools

    spec = next(t for t in tools() if t.name == "character_get")
    character = spec.output_schema()["properties"]["character"]
    assert sorted(character["properties"]["sheet"]["properties"]) == [
        "ability_modifiers", "attacks", "spells",
    ]  # fmt: skip
