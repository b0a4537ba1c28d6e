"""A creature that dies keeps no temporary hit points: the dead have no hit points to guard."""

from __future__ import annotations

import pytest

from domain_servers.common.random_stream import RandomStream
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game, ScriptedStream


@pytest.fixture
def failure(monkeypatch) -> None:
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 5)


def test_a_character_who_dies_on_death_saves_loses_its_temporary_hit_points(
    dnd: Game, failure
) -> None:
    made = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash, hp = made["character"]["id"], made["character"]["hp"]
    dnd.write("phase_set", {"phase": "play"})
    dnd.write("damage_apply", {"target_id": ash, "amount": hp["current"]})
    # Granted at 0 HP (allowed: they neither wake nor stabilise a dying character).
    assert dnd.write("temp_hp_grant", {"target_id": ash, "amount": 4})["temp_hp_after"] == 4
    outcomes = [dnd.write("death_save", {"character_id": ash})["outcome"] for _ in range(3)]
    assert outcomes == ["failure", "failure", "dead"]
    for sub in (GM, PLAYER, OTHER):  # everyone who sees Ash's hit points
        card = dnd.read("character_get", {"character_id": ash}, sub=sub)["character"]
        assert (card["hp"], card["conditions"]) == (
            {"current": 0, "max": hp["max"], "temp": 0}, ["dead", "prone", "unconscious"],
        ), sub  # fmt: skip
    assert dnd.state()["characters"][ash]["hp"]["temp"] == 0


def test_the_rules_clear_temporary_hit_points_on_death() -> None:
    char = {
        "id": "pc-1",
        "name": "Ash",
        "kind": "pc",
        "hp": {"current": 0, "max": 12, "temp": 7},
        "conditions": ["prone", "unconscious"],
        "death_saves": {"successes": 0, "failures": 2},
    }
    result = rules.death_save(char, ScriptedStream(4))
    assert result["outcome"] == "dead"
    assert char["hp"] == {"current": 0, "max": 12, "temp": 0}
    assert char["conditions"] == ["dead", "prone", "unconscious"]
