"""dnd5e: the SRD 5.1 wolf's bite knocks its target prone on a failed DC 11 STR save."""

from __future__ import annotations

import pytest

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import Game, ScriptedStream
from tests.domain_servers.test_dnd5e_rules import pc


def _wolf() -> dict:
    block = rules.monsters()["wolf"]
    return {
        "id": "mon-1",
        "name": "Wolf",
        "kind": "monster",
        "monster_key": "wolf",
        "abilities": dict(block["abilities"]),
        "proficiency_bonus": 2,
        "conditions": [],
        # Stored before the stat block named the bite's rider: it comes from the stat block.
        "attacks": [{"name": "Bite", "bonus": 4, "damage": "2d4+2", "damage_type": "piercing"}],
    }


def _bite(target: dict, *dice: int) -> dict:
    wolf = _wolf()
    return rules.resolve_attack(
        wolf, target, wolf["attacks"][0], ScriptedStream(*dice), advantage=False,
        disadvantage=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("save_die", "total", "success", "conditions"),
    [(5, 10, False, ["prone"]), (6, 11, True, [])],
)
def test_a_wolf_bite_knocks_its_target_prone_unless_it_makes_a_dc_11_strength_save(
    save_die: int, total: int, success: bool, conditions: list[str]
) -> None:
    # Ash: STR 16 (+3), proficient in STR saves (+2). To hit 15 + 4, damage 2 + 3 + 2.
    ash = pc()
    bitten = _bite(ash, 15, 2, 3, save_die)
    assert (bitten["hit"], bitten["damage"]["total"]) == (True, 7)
    save = bitten["on_hit"]
    assert (save["ability"], save["dc"], save["natural"], save["total"], save["success"]) == (
        "str",
        11,
        save_die,
        total,
        success,
    )
    assert (save["condition"], save["applied"]) == ("prone", not success)
    assert ash["conditions"] == conditions


def test_a_missed_bite_or_an_already_prone_target_rolls_no_save() -> None:
    ash = pc()
    missed = _bite(ash, 2)  # no other die is scripted: rolling one fails the test
    assert (missed["hit"], "on_hit" in missed, ash["conditions"]) == (False, False, [])
    lying = pc(conditions=["prone"])
    bitten = _bite(lying, 15, 15, 2, 3)  # a prone target: advantage, two d20s
    assert (bitten["hit"], "on_hit" in bitten, lying["conditions"]) == (True, False, ["prone"])


def test_the_table_sees_a_bitten_monsters_save_total_but_not_its_modifier(dnd: Game) -> None:
    dnd.write("phase_set", {"phase": "play"})
    wolf = dnd.write("monster_spawn", {"monster_key": "wolf"})["character"]["id"]
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    bite = {"attacker_id": wolf, "target_id": ogre, "expected_revision": dnd.revision}
    shown = dnd.call("attack", {**bite, "idempotency_key": "bite"}, view="public")
    assert shown.structured_content["hit"] is True
    assert shown.structured_content["on_hit"] == {
        "ability": "str",
        "applied": False,
        "bonus": 0,
        "condition": "prone",
        "dc": 11,
        "mode": "normal",
        "success": True,
        "total": 23,
    }
    # The GM's answer for the same stored bite: the seeded 19 and the ogre's STR +4.
    full = dnd.call("attack", {**bite, "idempotency_key": "bite"}).structured_content["on_hit"]
    assert (full["natural"], full["ability_modifier"], full["proficiency"]) == (19, 4, 0)
