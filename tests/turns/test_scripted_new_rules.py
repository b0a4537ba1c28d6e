"""The scripted GM narrates the dnd5e rules as the table meets them: paths around creatures,
Undead Fortitude, Pack Tactics and a wolf's bite. The results are the domain's shapes (as the
viewer's call returns them), so each outcome is narrated whatever the dice do."""

from __future__ import annotations

from typing import Any

import pytest

from apps.domains.client import principal_for
from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import AgentOutput, ToolInfo, TurnContext
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_conditions import _combatant
from tests.turns.test_scripted_phrasing import _Stub

pytestmark = pytest.mark.django_db

# A turn not yet begun, as combat_status gives it.
FULL = {"action": 1, "bonus_action": 1, "reaction": 1, "movement": 30}
SLOW = {**FULL, "movement": 20}  # a zombie's speed
FAST = {**FULL, "movement": 40}  # a wolf's

TOOLS = ("attack", "combat_status", "combat_move", "combat_end_turn")


def _ash_and_zombie() -> list[dict[str, Any]]:
    return [
        _combatant("pc-1", "Ash", "pc", initiative=15, budget=FULL, position=[5, 0]),
        _combatant("mon-2", "Zombie", "monster", initiative=8, budget=SLOW, position=[6, 0]),
    ]


def _run(text: str, results: dict[str, dict[str, Any]], *, role: str = "player",
         character_id: str | None = "pc-1", current: str = "pc-1",
         order: list[dict[str, Any]] | None = None) -> AgentOutput:  # fmt: skip
    combat = {
        "current": current,
        "order": order or _ash_and_zombie(),
    }
    turn = TurnContext(
        job_id="new-rules",
        system_id="dnd5e",
        phase="combat",
        role=role,
        task="action",
        text=text,
        tools=tuple(ToolInfo(n, "", {"type": "object", "properties": {}}) for n in TOOLS),
        character_id=character_id,
    )
    return ScriptedAgent().run_turn(turn, _Stub({"combat_status": {"combat": combat}, **results}))


def _texts(output: AgentOutput) -> list[tuple[str, str]]:
    return [(m.text, m.audience) for m in output.messages]


def _hit(effect: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "attack": "Longsword",
        "hit": True,
        "critical": False,
        "to_hit": {"total": 15, "natural": 12, "mode": "normal", "advantage_reasons": [],
                   "disadvantage_reasons": []},
        "damage": {"total": 9, "damage_type": "slashing", "effect": effect},
        **extra,
    }  # fmt: skip


def test_a_zombie_that_shrugs_off_a_killing_blow_is_said_to_stay_standing():
    # A player's view: the monster's status and that its save held, never its hit points.
    effect = {"target_id": "mon-2", "dropped_to_zero": False, "dead": False,
              "status": "bloodied", "undead_fortitude": {"success": True}}  # fmt: skip
    output = _run("attack the zombie", {"attack": _hit(effect)})
    assert _texts(output) == [
        (
            "A solid hit. Zombie takes 9 slashing damage from Ash's Longsword. "
            "Zombie should fall, but Undead Fortitude keeps it on its feet.",
            "trigger",
        )
    ]


def test_the_gm_alone_reads_the_undead_fortitude_save_and_the_hp_it_kept():
    effect = {
        "target_id": "mon-2", "raw": 9, "damage_type": "slashing", "dropped_to_zero": False,
        "dead": False, "hp_after": {"current": 1, "max": 22},
        "undead_fortitude": {"natural": 13, "rolls": [13], "mode": "normal", "ability": "con",
                             "ability_modifier": 3, "proficiency": 0, "bonus": 0, "total": 16,
                             "dc": 14, "success": True},
    }  # fmt: skip
    output = _run("Ash attacks the zombie", {"attack": _hit(effect)}, role="gm",
                  character_id=None)  # fmt: skip
    texts = _texts(output)
    assert texts[0][0].endswith(" Zombie should fall, but Undead Fortitude keeps it on its feet.")
    assert texts[0][1] == "trigger"
    assert "16" not in texts[0][0] and "DC" not in texts[0][0]
    assert texts[1:] == [
        ("Zombie: 1/22 HP (Undead Fortitude: CON save 16 against DC 14).", "gm"),
    ]


def _wolf_pack() -> list[dict[str, Any]]:
    # Both wolves within 5 ft of Ash, as Pack Tactics has them.
    return [
        _combatant("pc-1", "Ash", "pc", initiative=15, budget=FULL, position=[5, 0]),
        _combatant("mon-2", "Wolf", "monster", initiative=12, budget=FAST, position=[6, 0]),
        _combatant("mon-3", "Wolf", "monster", initiative=8, budget=FAST, position=[5, 1]),
    ]


def _bite(*, mode: str, advantage: list[str], disadvantage: list[str] = (), **extra: Any):
    effect = {"target_id": "pc-1", "raw": 7, "damage_type": "piercing", "dropped_to_zero": False,
              "dead": False, "hp_after": {"current": 5, "max": 12}}  # fmt: skip
    return {
        "attack": "Bite",
        "hit": True,
        "critical": False,
        "to_hit": {"total": 17, "natural": 13, "mode": mode, "advantage_reasons": advantage,
                   "disadvantage_reasons": list(disadvantage)},
        "damage": {"total": 7, "damage_type": "piercing", "effect": effect},
        **extra,
    }  # fmt: skip


def _wolf_bites_ash(bite: dict[str, Any]) -> AgentOutput:
    """The GM has Wolf (mon-2), whose turn it is, bite Ash with the attack result `bite`."""
    return _run("wolf attacks Ash", {"attack": bite}, role="gm", character_id=None,
                current="mon-2", order=_wolf_pack())  # fmt: skip


def test_a_wolf_attacking_with_pack_tactics_says_why_it_has_advantage():
    bite = _bite(mode="advantage", advantage=["Pack Tactics: Wolf (mon-3) is within 5 ft of Ash"])
    output = _wolf_bites_ash(bite)
    assert _texts(output) == [
        (
            "A solid hit. Ash takes 7 piercing damage from Wolf's Bite. "
            "(Advantage: Pack Tactics: Wolf 2 is within 5 ft of Ash.)",
            "trigger",
        )
    ]


def test_advantage_and_disadvantage_that_cancel_are_said_to_cancel():
    bite = _bite(
        mode="normal",
        advantage=["Pack Tactics: Wolf (mon-3) is within 5 ft of Ash"],
        disadvantage=["Wolf (mon-2) is poisoned"],
    )
    output = _wolf_bites_ash(bite)
    assert _texts(output)[0][0].endswith(
        " (Advantage and disadvantage cancel: Pack Tactics: Wolf 2 is within 5 ft of Ash; "
        "Wolf is poisoned.)"
    )


def _rider(*, total: int, success: bool, **extra: Any) -> dict[str, Any]:
    return {"natural": total - 1, "rolls": [total - 1], "mode": "normal", "ability": "str",
            "ability_modifier": 1, "proficiency": 0, "bonus": 0, "total": total, "dc": 11,
            "success": success, "condition": "prone", "applied": not success, **extra}  # fmt: skip


def test_a_wolf_bite_that_knocks_its_target_prone_says_so_with_the_save():
    bite = _bite(mode="normal", advantage=[], on_hit=_rider(total=8, success=False))
    output = _wolf_bites_ash(bite)
    assert _texts(output) == [
        (
            "A solid hit. Ash takes 7 piercing damage from Wolf's Bite. "
            "Ash is knocked prone (STR save 8 against DC 11).",
            "trigger",
        )
    ]


def test_a_wolf_bite_resisted_says_the_target_stays_standing():
    bite = _bite(mode="normal", advantage=[], on_hit=_rider(total=14, success=True))
    output = _wolf_bites_ash(bite)
    assert _texts(output)[0][0].endswith(" Ash stays standing (STR save 14 against DC 11).")


def test_a_bitten_target_that_cannot_save_is_said_to_fail_automatically():
    rider = _rider(total=15, success=False, automatic_failure="Ash is paralyzed")
    bite = _bite(mode="normal", advantage=[], on_hit=rider)
    output = _wolf_bites_ash(bite)
    assert _texts(output)[0][0].endswith(
        " Ash is knocked prone (the STR save fails: Ash is paralyzed)."
    )


def _party() -> list[dict[str, Any]]:
    # Ash at (5, 0) beside Bram at (6, 0); the goblin far off, out of the way.
    return [
        _combatant("pc-1", "Ash", "pc", initiative=15, budget=FULL, position=[5, 0]),
        _combatant("pc-4", "Bram", "pc", initiative=12, budget=FULL, position=[6, 0]),
        _combatant("mon-2", "Goblin", "monster", initiative=8, budget=FULL, position=[9, 9]),
    ]


def _move(**result: Any) -> dict[str, Any]:
    return {"character_id": "pc-1", "from": [5, 0], "crawled": False, **result}


def test_a_move_through_an_allys_space_says_the_movement_it_cost():
    # Bram stands at (6, 0): crossing his square costs 5 ft more than the 10 ft walked.
    moved = _move(to=[7, 0], feet=10, movement_cost=15, movement_left=15)
    output = _run("move to 7,0", {"combat_move": moved}, order=_party())
    assert _texts(output) == [
        (
            "Ash moves to (7, 0), 10 ft for 15 ft of movement (through another creature's "
            "space), with 15 ft left.",
            "trigger",
        )
    ]


def test_a_move_around_foes_says_it_went_around(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa at (5, 0), goblins at (6, 0), (6, 1)
    moved = table.run(player, "move to 7,0", job_id="around")
    assert moved.caller.outcomes[0].structured["feet"] == 20  # 10 ft as the crow flies
    assert moved.texts == [
        ("Ilsa moves to (7, 0), 20 ft around the creatures in the way, with 10 ft left. "
         "Ilsa leaves Goblin 2's reach: Goblin 2 may make an opportunity attack.", "trigger"),
    ]  # fmt: skip


def test_the_gm_poisons_a_creature_and_hears_when_it_is_immune(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.run(gm, "start combat with zombie", job_id="start")
    before = table.revision()
    refused = table.run(gm, "poison the zombie", job_id="poison-zombie")
    assert refused.texts == [
        ("That cannot happen: Zombie is immune to being poisoned.", "requester")
    ]
    assert table.revision() == before
    poisoned = table.run(gm, "poison Ilsa", job_id="poison-ilsa")
    assert poisoned.tools[-2:] == ["condition_add", "combat_status"]  # options read again
    assert poisoned.texts == [("Ilsa is now poisoned.", "trigger")]
    knocked = table.run(gm, "knock the zombie prone", job_id="knock")
    assert knocked.texts == [("Zombie is now prone.", "trigger")]
    # A player is told who gives conditions, not the help list.
    assert table.run(player, "poison the zombie", job_id="player").texts == [
        ("Only the GM can give a creature a condition.", "requester")
    ]
