"""dnd5e SRD undead: poison immunities and the zombie's Undead Fortitude."""

from __future__ import annotations

import pytest

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import PLAYER, Game, ScriptedStream


def _spawn(dnd: Game, key: str) -> str:
    dnd.write("phase_set", {"phase": "play"})
    return dnd.write("monster_spawn", {"monster_key": key})["character"]["id"]


@pytest.mark.parametrize(("key", "name"), [("skeleton", "Skeleton"), ("zombie", "Zombie")])
def test_undead_cannot_be_poisoned_nor_hurt_by_poison(dnd: Game, key: str, name: str) -> None:
    undead = _spawn(dnd, key)
    before, revision = dnd.state(), dnd.revision
    error = dnd.fail("condition_add", {"target_id": undead, "condition": "poisoned"})
    assert error == {
        "code": "invalid_request",
        "message": f"{name} is immune to being poisoned",
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }
    assert dnd.state() == before and dnd.read("campaign_get")["authority_revision"] == revision
    hurt = dnd.write("damage_apply", {"target_id": undead, "amount": 9, "damage_type": "poison"})
    assert (hurt["adjusted"], hurt["hp_after"]["current"]) == (0, hurt["hp_before"]["current"])
    # Other conditions still take.
    added = dnd.write("condition_add", {"target_id": undead, "condition": "prone"})
    assert added["conditions"] == ["prone"]


def test_a_goblin_can_still_be_poisoned(dnd: Game) -> None:
    goblin = _spawn(dnd, "goblin")
    added = dnd.write("condition_add", {"target_id": goblin, "condition": "poisoned"})
    assert added["conditions"] == ["poisoned"]


def _zombie() -> dict:
    zombie = dict(rules.monsters()["zombie"])
    return {
        "id": "mon-1",
        "name": "Zombie",
        "kind": "monster",
        "monster_key": "zombie",
        "abilities": dict(zombie["abilities"]),
        "proficiency_bonus": 2,
        "ac": zombie["ac"],
        "hp": {"current": 6, "max": 22, "temp": 0},
        "save_proficiencies": ["wis"],
        "resistances": [],
        "vulnerabilities": [],
        "immunities": ["poison"],
        "conditions": [],
        "death_saves": {"successes": 0, "failures": 0},
    }


def test_a_zombie_that_makes_its_fortitude_save_stays_up_with_1_hp() -> None:
    zombie = _zombie()
    # DC 5 + 10 damage = 15; a 12 and CON +3 make 15.
    effect = rules.apply_damage(zombie, 10, "slashing", rng=ScriptedStream(12))
    assert (effect["hp_after"]["current"], effect["dropped_to_zero"], effect["dead"]) == (
        1,
        False,
        False,
    )
    assert effect["undead_fortitude"] == {
        "natural": 12,
        "rolls": [12],
        "mode": "normal",
        "ability": "con",
        "ability_modifier": 3,
        "proficiency": 0,
        "bonus": 0,
        "total": 15,
        "dc": 15,
        "success": True,
    }
    assert zombie["conditions"] == []


def test_a_zombie_that_fails_its_fortitude_save_is_destroyed() -> None:
    zombie = _zombie()
    effect = rules.apply_damage(zombie, 10, "slashing", rng=ScriptedStream(11))
    assert (effect["hp_after"]["current"], effect["dead"]) == (0, True)
    assert (effect["undead_fortitude"]["total"], effect["undead_fortitude"]["success"]) == (
        14,
        False,
    )


@pytest.mark.parametrize(("damage_type", "critical"), [("radiant", False), ("slashing", True)])
def test_radiant_damage_or_a_critical_hit_destroys_a_zombie_without_a_save(
    damage_type: str, critical: bool
) -> None:
    zombie = _zombie()
    # No die is scripted: rolling one would fail the test.
    effect = rules.apply_damage(zombie, 10, damage_type, critical, rng=ScriptedStream())
    assert (effect["dead"], "undead_fortitude" in effect) == (True, False)


def test_players_see_a_zombie_shrug_off_a_deadly_blow_but_not_its_hit_points(
    dnd: Game,
) -> None:
    zombie = _spawn(dnd, "zombie")
    dnd.write("damage_apply", {"target_id": zombie, "amount": 16})
    revision = dnd.revision
    blow = {"target_id": zombie, "amount": 6, "expected_revision": revision}
    # The public view of the blow, as a narrowed answer shows it to the table.
    shown = dnd.call("damage_apply", {**blow, "idempotency_key": "blow"}, view="public")
    assert not shown.is_error, shown.structured_content
    assert {k: shown.structured_content[k] for k in ("dead", "status", "undead_fortitude")} == {
        "dead": False,
        "status": "bloodied",
        "undead_fortitude": {"success": True},
    }
    assert "hp_after" not in shown.structured_content
    # The GM's view of the same stored blow: DC 5 + 6, the seeded d20 17 with CON +3.
    full = dnd.call("damage_apply", {**blow, "idempotency_key": "blow"}).structured_content
    assert full["hp_after"] == {"current": 1, "max": 22, "temp": 0}
    assert {k: full["undead_fortitude"][k] for k in ("dc", "natural", "total", "success")} == {
        "dc": 11,
        "natural": 17,
        "total": 20,
        "success": True,
    }
    dnd.revision += 1
    public = dnd.read("character_get", {"character_id": zombie}, sub=PLAYER)["character"]
    assert ("hp" in public, public["status"]) == (False, "bloodied")
