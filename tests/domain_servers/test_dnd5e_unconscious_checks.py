"""dnd5e: an unconscious creature (a dying one too) makes no ability checks; its STR and DEX
saves fail automatically, saying why, and its other saves are rolled as usual."""

from __future__ import annotations

import pytest

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def _ash(dnd: Game) -> str:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    dnd.write("phase_set", {"phase": "play"})
    return ash["character"]["id"]


def _drop(dnd: Game, char_id: str) -> None:
    hp = dnd.read("character_get", {"character_id": char_id})["character"]["hp"]["current"]
    dnd.write("damage_apply", {"target_id": char_id, "amount": hp})


@pytest.mark.parametrize("args", [{"skill": "perception"}, {"ability": "str"}])
def test_a_dying_character_makes_no_ability_check(dnd: Game, args) -> None:
    ash = _ash(dnd)
    _drop(dnd, ash)
    revision = dnd.revision

    error = dnd.fail("ability_check", {"character_id": ash, "dc": 10, **args}, sub=PLAYER)

    assert (error["code"], error["message"]) == (
        "invalid_request",
        "Ash is unconscious and makes no checks",
    )
    assert dnd.domain.storage.load(dnd.campaign)[0] == revision


def test_a_knocked_out_character_with_hit_points_makes_no_ability_check(dnd: Game) -> None:
    ash = _ash(dnd)
    dnd.write("condition_add", {"target_id": ash, "condition": "unconscious"})

    error = dnd.fail("ability_check", {"character_id": ash, "skill": "perception", "dc": 10})

    assert error["message"] == "Ash is unconscious and makes no checks"


@pytest.mark.parametrize("ability", ["str", "dex"])
def test_a_dying_character_fails_str_and_dex_saves_automatically(
    dnd: Game, monkeypatch, ability
) -> None:
    ash = _ash(dnd)
    _drop(dnd, ash)
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 20)

    result = dnd.write(
        "saving_throw", {"character_id": ash, "ability": ability, "dc": 10}, sub=PLAYER
    )

    assert (result["success"], result["automatic_failure"]) == (False, "Ash is unconscious")


def test_a_dying_character_rolls_its_other_saves(dnd: Game, monkeypatch) -> None:
    ash = _ash(dnd)
    _drop(dnd, ash)
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)

    result = dnd.write("saving_throw", {"character_id": ash, "ability": "con", "dc": 14})

    # d20 10 + CON 14 (+2) + proficiency 2.
    assert (result["total"], result["success"], "automatic_failure" in result) == (
        14,
        True,
        False,
    )
