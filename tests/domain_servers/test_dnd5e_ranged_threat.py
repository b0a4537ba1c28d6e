"""dnd5e: a ranged attack has disadvantage within 5 ft of a hostile who can see the attacker and
isn't incapacitated (SRD 5.1, Ranged Attacks in Close Combat)."""

from __future__ import annotations

import pytest

from tests.domain_servers.conftest import PLAYER, Game


def _face_to_face(dnd: Game) -> tuple[str, str]:
    """Ash next to a goblin on the grid, the goblin's turn first."""
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)[
        "character"
    ]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    started = dnd.write("combat_start", {"participant_ids": [hero, goblin]})
    assert [(e["id"], e["position"]) for e in started["combat"]["order"]] == [
        (goblin, [6, 0]),
        (hero, [5, 0]),
    ]
    return hero, goblin


def _shoot(dnd: Game, goblin: str, hero: str) -> dict:
    return dnd.write(
        "attack", {"attacker_id": goblin, "target_id": hero, "attack_name": "Shortbow"}
    )


@pytest.mark.parametrize("condition", ["incapacitated", "blinded"])
def test_a_foe_next_to_an_archer_who_cannot_see_or_act_does_not_spoil_the_shot(
    dnd: Game, condition: str
) -> None:
    hero, goblin = _face_to_face(dnd)
    dnd.write("condition_add", {"target_id": hero, "condition": condition})
    shot = _shoot(dnd, goblin, hero)
    assert shot["range"] == {"distance_ft": 5, "kind": "ranged", "disadvantage": []}
    assert "hostile within 5 ft" not in shot["to_hit"]["disadvantage_reasons"]


def test_an_invisible_archer_shoots_next_to_a_foe_without_disadvantage(dnd: Game) -> None:
    hero, goblin = _face_to_face(dnd)
    dnd.write("condition_add", {"target_id": goblin, "condition": "invisible"})
    shot = _shoot(dnd, goblin, hero)
    assert shot["range"] == {"distance_ft": 5, "kind": "ranged", "disadvantage": []}
    assert shot["to_hit"]["mode"] == "advantage"
    assert shot["to_hit"]["advantage_reasons"] == ["Goblin is invisible"]
    assert shot["to_hit"]["disadvantage_reasons"] == []


def test_a_foe_who_sees_the_archer_still_gives_disadvantage(dnd: Game) -> None:
    hero, goblin = _face_to_face(dnd)
    shot = _shoot(dnd, goblin, hero)
    assert shot["range"] == {
        "distance_ft": 5,
        "kind": "ranged",
        "disadvantage": ["hostile within 5 ft"],
    }
    assert shot["to_hit"]["mode"] == "disadvantage"
