"""dnd5e: initiative is a Dexterity check (SRD 5.1), so what gives disadvantage on ability
checks (poisoned, frightened) gives it on the initiative roll too."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def _scripted(monkeypatch, *values: int) -> None:
    rolls = iter(values)
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: next(rolls))


def _ash_and_a_goblin(dnd: Game) -> tuple[str, str]:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    return ash["character"]["id"], goblin


def test_a_poisoned_fighter_rolls_initiative_with_disadvantage(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_and_a_goblin(dnd)
    dnd.write("condition_add", {"target_id": ash, "condition": "poisoned"})
    # Rolled in id order: the goblin's 10, then Ash's two dice, 15 and 5.
    _scripted(monkeypatch, 10, 15, 5)

    started = dnd.write("combat_start", {"participant_ids": [ash, goblin]})

    order = [(e["id"], e["initiative"]) for e in started["combat"]["order"]]
    # Goblin 10 + DEX 2; Ash keeps the lower die, 5 + DEX 1.
    assert order == [(goblin, 12), (ash, 6)]


def test_an_unhindered_fighter_rolls_one_die_for_initiative(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_and_a_goblin(dnd)
    _scripted(monkeypatch, 10, 15)

    started = dnd.write("combat_start", {"participant_ids": [ash, goblin]})

    order = [(e["id"], e["initiative"]) for e in started["combat"]["order"]]
    assert order == [(ash, 16), (goblin, 12)]
