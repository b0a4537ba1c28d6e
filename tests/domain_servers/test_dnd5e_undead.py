"""dnd5e SRD undead: poison immunity and the poisoned condition immunity of the stat blocks."""

from __future__ import annotations

import pytest

from tests.domain_servers.conftest import Game


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
