"""dnd5e rules a table checks against the SRD: damage, cantrips and stat blocks."""

from __future__ import annotations

import copy

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import PLAYER, Game, ScriptedStream
from tests.domain_servers.test_dnd5e_rules import _armed_party, pc


def _wizard() -> dict:
    template = copy.deepcopy(rules.TEMPLATES["wizard"])
    return pc(abilities=template["abilities"], attacks=template["attacks"])


def test_fire_bolt_damage_adds_no_intelligence_modifier() -> None:
    wizard = _wizard()
    target = pc(id="pc-2", name="Bram", ac=10)
    # d20 15 hits AC 10; the d10 rolls 6: 6 fire damage, not 6 + INT 15's +2.
    result = rules.resolve_attack(
        wizard, target, wizard["attacks"][0], ScriptedStream(15, 6),
        advantage=False, disadvantage=False,
    )  # fmt: skip
    assert result["hit"] is True
    assert (result["damage"]["expression"], result["damage"]["total"]) == ("1d10", 6)
    assert target["hp"]["current"] == 14


def test_a_weapon_attack_still_adds_its_ability_modifier() -> None:
    fighter = pc()
    assert rules.damage_expression(fighter, fighter["attacks"][0]) == "1d8+3"


def test_a_petrified_creature_takes_half_damage_of_every_type() -> None:
    stone = pc(conditions=["petrified"])
    effect = rules.apply_damage(stone, 11, "slashing")
    assert (effect["adjusted"], effect["hp_after"]["current"]) == (5, 15)
    # Resistance does not stack: one already resistant is still halved only once.
    resistant = pc(conditions=["petrified"], resistances=["fire"])
    assert rules.apply_damage(resistant, 12, "fire")["adjusted"] == 6
    # Untyped damage is halved too: petrified resists all damage.
    assert rules.apply_damage(pc(conditions=["petrified"]), 9, None)["adjusted"] == 4


def _spawn(game: Game, key: str) -> str:
    game.write("phase_set", {"phase": "play"})
    return game.write("monster_spawn", {"monster_key": key})["character"]["id"]


def test_a_zombie_adds_its_proficiency_to_wisdom_saves(dnd: Game) -> None:
    zombie = _spawn(dnd, "zombie")
    save = dnd.write("saving_throw", {"character_id": zombie, "ability": "wis", "dc": 10})
    # SRD stat block: Wis +0 (WIS 6 is -2, plus proficiency 2).
    assert (save["ability_modifier"], save["proficiency"]) == (-2, 2)
    assert save["total"] == save["natural"]
    con = dnd.write("saving_throw", {"character_id": zombie, "ability": "con", "dc": 10})
    assert con["proficiency"] == 0


def test_a_wolf_adds_its_proficiency_to_perception_and_stealth(dnd: Game) -> None:
    wolf = _spawn(dnd, "wolf")
    for skill, total_bonus in (("perception", 3), ("stealth", 4)):
        check = dnd.write("ability_check", {"character_id": wolf, "skill": skill, "dc": 10})
        assert check["total"] - check["natural"] == total_bonus
    athletics = dnd.write("ability_check", {"character_id": wolf, "skill": "athletics", "dc": 10})
    assert athletics["proficiency"] == 0


def test_stat_blocks_carry_their_srd_ranged_attacks() -> None:
    ranged = {
        key: [
            (a["name"], a["bonus"], a["damage"], a["damage_type"], rules.attack_distances(a))
            for a in block["attacks"]
            if rules.attack_distances(a)["range"] is not None
        ]
        for key, block in rules.monsters().items()
    }
    assert ranged["bandit"] == [
        ("Light Crossbow", 3, "1d8+1", "piercing",
         {"reach": None, "range": 80, "long_range": 320}),
    ]  # fmt: skip
    assert ranged["ogre"] == [
        ("Javelin", 6, "2d6+4", "piercing", {"reach": 5, "range": 30, "long_range": 120}),
    ]
    assert ranged["orc"] == [
        ("Javelin", 5, "1d6+3", "piercing", {"reach": 5, "range": 30, "long_range": 120}),
    ]
    assert ranged["skeleton"] == [
        ("Shortbow", 4, "1d6+2", "piercing", {"reach": None, "range": 80, "long_range": 320}),
    ]


def test_an_orc_throws_its_javelin_at_a_fighter_out_of_reach(dnd: Game) -> None:
    fighter = dnd.write("character_create", {"name": "Ash", "template": "fighter"})["character"]
    orc = _spawn(dnd, "orc")
    dnd.write("combat_start", {"participant_ids": [fighter["id"], orc]})
    combat = dnd.read("combat_status")["combat"]
    if combat["current"] != orc:
        dnd.write("combat_end_turn")
    pc_x, pc_y = dnd.state()["combat"]["positions"][fighter["id"]]
    dnd.write("combat_move", {"character_id": orc, "x": pc_x + 4, "y": pc_y})
    thrown = dnd.write(
        "attack", {"attacker_id": orc, "target_id": fighter["id"], "attack_name": "Javelin"}
    )
    assert thrown["attack"] == "Javelin"
    assert thrown["range"] == {"distance_ft": 20, "kind": "ranged", "disadvantage": []}
    assert thrown["to_hit"]["bonus"] == 5


def test_an_incapacitated_creature_still_moves_and_stands_but_cannot_attack(dnd: Game) -> None:
    hero, goblin = _armed_party(dnd)
    dnd.write("combat_end_turn")
    dnd.write("condition_add", {"target_id": hero, "condition": "incapacitated"})
    dnd.write("condition_add", {"target_id": hero, "condition": "prone"})
    # Incapacitated takes away actions and reactions, not movement (SRD).
    stood = dnd.write("stand_up", {"character_id": hero}, sub=PLAYER)
    assert (stood["movement_cost"], stood["movement_left"]) == (15, 15)
    moved = dnd.write("combat_move", {"character_id": hero, "x": 5, "y": 2}, sub=PLAYER)
    assert (moved["feet"], moved["movement_left"]) == (10, 5)
    error = dnd.fail("attack", {"attacker_id": hero, "target_id": goblin}, sub=PLAYER)
    assert error["message"] == "Ash cannot act while incapacitated"
