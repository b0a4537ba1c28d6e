"""dnd5e conditions as a player at the table expects them on saves and attacks."""

from __future__ import annotations

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import Game, ScriptedStream
from tests.domain_servers.test_dnd5e_rules import pc


def _goblin(game: Game) -> str:
    game.write("phase_set", {"phase": "play"})
    return game.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]


def test_a_paralyzed_creature_fails_strength_and_dexterity_saves() -> None:
    for condition in ("paralyzed", "petrified", "stunned", "unconscious"):
        char = pc(conditions=[condition])
        result = rules.check(
            char, ScriptedStream(20), ability="dex", dc=5, proficient=False,
            advantage=False, disadvantage=False, bonus=0, save=True,
        )  # fmt: skip
        assert (result["natural"], result["success"]) == (20, False)
        assert result["automatic_failure"] == f"Ash is {condition}"
    # Other saves, and checks, are rolled as ever.
    char = pc(conditions=["paralyzed"])
    wis = rules.check(
        char, ScriptedStream(20), ability="wis", dc=5, proficient=False,
        advantage=False, disadvantage=False, bonus=0, save=True,
    )  # fmt: skip
    assert wis["success"] is True and "automatic_failure" not in wis


def test_a_paralyzed_monsters_dexterity_save_fails_through_the_tool(dnd: Game) -> None:
    goblin = _goblin(dnd)
    dnd.write("condition_add", {"target_id": goblin, "condition": "paralyzed"})
    for _ in range(3):
        save = dnd.write("saving_throw", {"character_id": goblin, "ability": "dex", "dc": 2})
        assert (save["success"], save["automatic_failure"]) == (False, "Goblin is paralyzed")


def test_attacks_against_a_petrified_or_unseen_creature() -> None:
    def mode(attacker: dict, target: dict) -> tuple[str, list[str], list[str]]:
        result = rules.resolve_attack(
            attacker, target, attacker["attacks"][0], ScriptedStream(10, 10),
            advantage=False, disadvantage=False,
        )  # fmt: skip
        to_hit = result["to_hit"]
        return to_hit["mode"], to_hit["advantage_reasons"], to_hit["disadvantage_reasons"]

    # AC 30: every roll here misses, so the only dice are the d20s.
    target = pc(id="pc-2", name="Bram", ac=30)
    assert mode(pc(), {**target, "conditions": ["petrified"]}) == (
        "advantage", ["Bram is petrified"], [],
    )  # fmt: skip
    assert mode(pc(conditions=["invisible"]), target) == ("advantage", ["Ash is invisible"], [])
    assert mode(pc(), {**target, "conditions": ["invisible"]}) == (
        "disadvantage", [], ["Bram is invisible"],
    )  # fmt: skip
