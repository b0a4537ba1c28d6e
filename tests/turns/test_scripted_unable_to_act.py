"""The scripted agent offers a combatant whose turn comes only what the rules let it do: one
that cannot act (incapacitated, paralyzed, petrified, stunned, unconscious, or dying at 0 HP)
is never offered an attack."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.agents import scripted
from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, TurnContext
from domain_servers.dnd5e import rules
from tests.turns.test_scripted_conditions import (
    _combatant,
    _Stub,
    _suggestions_after_ending_turn,
)
from tests.turns.test_scripted_new_rules import _run, _texts


def _wolf_and(pc: dict[str, Any]) -> list[dict[str, Any]]:
    return [pc, _combatant("mon-2", "Wolf", "monster")]


@pytest.mark.parametrize(
    "condition", ["incapacitated", "paralyzed", "petrified", "stunned", "unconscious"]
)
def test_a_player_who_cannot_act_is_not_offered_an_attack(condition):
    order = _wolf_and(_combatant("pc-1", "Ash", "pc", conditions=[condition]))
    assert _suggestions_after_ending_turn(condition, order) == ("end turn",)


def test_a_dying_player_is_offered_a_death_save_not_an_attack():
    dying = _combatant("pc-1", "Ash", "pc", status="down", conditions=["prone", "unconscious"])
    assert _suggestions_after_ending_turn("dying", _wolf_and(dying)) == ("death save",)


def test_a_stable_player_at_0_hp_is_offered_no_death_save():
    # The rules refuse a stable creature's death save (until it takes damage again).
    stable = _combatant(
        "pc-1", "Ash", "pc", status="down", conditions=["prone", "stable", "unconscious"]
    )
    assert _suggestions_after_ending_turn("stable", _wolf_and(stable)) == ("end turn",)


def test_an_incapacitated_player_on_the_ground_may_still_stand_up():
    # Incapacitated takes actions, not movement: the rules let it stand.
    down = _combatant("pc-1", "Ash", "pc", conditions=["incapacitated", "prone"])
    assert _suggestions_after_ending_turn("inc-prone", _wolf_and(down)) == (
        "stand up",
        "end turn",
    )


def test_the_gm_is_not_offered_an_attack_for_a_stunned_monster():
    turn = TurnContext(
        job_id="stunned",
        system_id="dnd5e",
        phase="combat",
        role="gm",
        task="action",
        text="end turn",
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "combat_end_turn")
        ),
    )
    order = [
        _combatant("pc-1", "Ash", "pc"),
        _combatant("mon-2", "Wolf", "monster", conditions=["stunned"]),
    ]
    stub = _Stub(
        {
            "combat_status": {"combat": {"current": "pc-1", "order": order}},
            "combat_end_turn": {"ended": "pc-1", "current": "mon-2", "round": 1},
        }
    )
    assert ScriptedAgent().run_turn(turn, stub).suggestions == ("end turn",)


def test_the_conditions_that_stop_a_creature_are_the_rules_own():
    # apps/ may not import server code: the agent's copies are kept equal to the rules here.
    assert scripted.CANNOT_ACT == rules.CANNOT_ACT
    assert scripted.CANNOT_STAND == (rules.CANNOT_MOVE - {"dead"}) | {"grappled", "restrained"}


def test_a_stable_character_is_not_told_to_make_the_death_save_the_rules_refuse():
    stable = _combatant(
        "pc-1", "Ash", "pc", status="down", conditions=["prone", "stable", "unconscious"]
    )
    output = _run("attack the wolf", {}, order=_wolf_and(stable))
    assert _texts(output) == [
        ("Ash is down at 0 hit points, stable, and cannot attack.", "requester")
    ]
    assert output.suggestions == ("end turn",)
