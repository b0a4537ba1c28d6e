"""A player character dropped to 0 hit points is said to be unconscious and dying, not merely
on the ground; a creature that simply falls keeps the plain words."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, TurnContext
from tests.turns.test_scripted_conditions import _combatant, _Stub


def _hit_text(target_kind: str, job_id: str) -> str:
    turn = TurnContext(
        job_id=job_id,
        system_id="dnd5e",
        phase="combat",
        role="gm",
        task="action",
        text="attack Ash",
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "attack")
        ),
    )
    order = [_combatant("mon-3", "Wolf", "monster"), _combatant("pc-1", "Ash", target_kind)]
    attack = {
        "attack": "Bite",
        "to_hit": {"total": 15, "natural": 12},
        "hit": True,
        "critical": False,
        "damage": {"total": 7, "damage_type": "piercing", "effect": {"dropped_to_zero": True}},
    }
    stub = _Stub(
        {"combat_status": {"combat": {"current": "mon-3", "round": 1, "order": order}},
         "attack": attack}
    )  # fmt: skip
    return ScriptedAgent().run_turn(turn, stub).messages[0].text


@pytest.mark.parametrize("job_id", ["a", "b", "c", "d"])
def test_a_character_dropped_to_0_hp_is_said_to_be_unconscious_and_dying(job_id):
    text = _hit_text("pc", job_id)
    assert text.endswith(" Ash drops, unconscious and dying."), text


def test_a_creature_dropped_to_0_hp_without_dying_falls_in_plain_words():
    assert _hit_text("monster", "a").endswith(" Ash drops to the ground.")
