"""dnd5e: an attack cantrip's damage grows with the caster's level (SRD 5.1): Fire Bolt's
1d10 is 2d10 at 5th level, 3d10 at 11th and 4d10 at 17th; a leveled spell (Guiding Bolt)
and a weapon do not grow."""

from __future__ import annotations

import copy

from domain_servers.common.random_stream import RandomStream
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import PLAYER, Game
from tests.domain_servers.test_dnd5e_rules import pc


def _wizard(level: int) -> dict:
    template = copy.deepcopy(rules.TEMPLATES["wizard"])
    return pc(level=level, abilities=template["abilities"], attacks=template["attacks"])


def test_fire_bolt_adds_a_die_at_5th_11th_and_17th_level() -> None:
    expressions = [
        rules.damage_expression(wizard, wizard["attacks"][0])
        for wizard in (_wizard(1), _wizard(4), _wizard(5), _wizard(11), _wizard(17), _wizard(20))
    ]
    assert expressions == ["1d10", "1d10", "2d10", "3d10", "4d10", "4d10"]


def test_ray_of_frost_scales_and_a_longsword_and_guiding_bolt_do_not() -> None:
    caster = pc(level=11)
    ray = {"name": "Ray of Frost", "ability": "int", "damage": "1d8", "damage_type": "cold"}
    bolt = {"name": "Guiding Bolt", "ability": "wis", "damage": "4d6", "damage_type": "radiant"}
    sword = {"name": "Longsword", "ability": "str", "damage": "1d8", "damage_type": "slashing"}
    assert [rules.damage_expression(caster, a) for a in (ray, bolt, sword)] == [
        "3d8",
        "4d6",
        "1d8+3",
    ]


def test_a_cantrip_written_with_its_grown_dice_is_taken_as_written() -> None:
    caster = pc(level=5)
    bolt = {"name": "Fire Bolt", "ability": "int", "damage": "2d10", "damage_type": "fire"}
    assert rules.damage_expression(caster, bolt) == "2d10"


def test_a_5th_level_wizards_fire_bolt_rolls_two_d10(dnd: Game, monkeypatch) -> None:
    wizard = dnd.write(
        "character_create", {"name": "Vex", "template": "wizard", "level": 5}, sub=PLAYER
    )["character"]["id"]
    target = dnd.write(
        "character_create",
        {"name": "Bram", "template": "fighter", "max_hp": 40, "ac": 10},
        sub=PLAYER,
    )
    dnd.write("phase_set", {"phase": "play"})
    # Every die rolls 7: the d20 hits AC 10, and each d10 deals 7.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 7)

    hit = dnd.write(
        "attack", {"attacker_id": wizard, "target_id": target["character"]["id"]}, sub=PLAYER
    )

    assert (hit["hit"], hit["damage"]["expression"], hit["damage"]["total"]) == (True, "2d10", 14)
    assert hit["damage"]["effect"]["hp_after"]["current"] == 26
