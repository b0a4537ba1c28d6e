"""A turn handed to a character at 0 HP says what that turn holds: a dying one's is a death
save; a stable one makes none (the rules refuse it), so the hand-over says it is stable."""

from __future__ import annotations

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, TurnContext
from tests.turns.test_scripted_conditions import _combatant, _Stub


def _handover(conditions: list[str]) -> str:
    turn = TurnContext(
        job_id="handover",
        system_id="dnd5e",
        phase="combat",
        role="gm",
        task="action",
        text="end turn",
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "combat_end_turn")
        ),
        character_id=None,
    )
    order = [
        _combatant("mon-2", "Goblin", "monster"),
        _combatant("pc-1", "Ilsa", "pc", status="down", conditions=conditions),
    ]
    stub = _Stub(
        {
            "combat_status": {"combat": {"current": "mon-2", "round": 2, "order": order}},
            "combat_end_turn": {"ended": "mon-2", "current": "pc-1", "round": 2},
        }
    )
    return ScriptedAgent().run_turn(turn, stub).messages[0].text


def test_a_stable_characters_turn_is_not_called_a_death_save():
    assert _handover(["unconscious", "stable"]) == (
        "Goblin ends the turn. Ilsa acts next (round 2). Ilsa is stable and unconscious."
    )


def test_a_dying_characters_turn_is_still_a_death_save():
    assert _handover(["unconscious"]) == (
        "Goblin ends the turn. Ilsa acts next (round 2). Ilsa is dying: their turn is a death save."
    )


def _death_save_handover(conditions: list[str]) -> str:
    """Ash's death save kills: the rules pass the turn to Ilsa, at 0 HP with `conditions`."""
    turn = TurnContext(
        job_id="handover",
        system_id="dnd5e",
        phase="combat",
        role="player",
        task="action",
        text="death save",
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "death_save")
        ),
        character_id="pc-1",
    )
    order = [
        _combatant("pc-1", "Ash", "pc", status="down", conditions=["unconscious"]),
        _combatant("pc-2", "Ilsa", "pc", status="down", conditions=conditions),
    ]
    stub = _Stub(
        {
            "combat_status": {"combat": {"current": "pc-1", "round": 2, "order": order}},
            "death_save": {"outcome": "dead", "natural": 7, "current": "pc-2", "round": 3},
        }
    )
    return ScriptedAgent().run_turn(turn, stub).messages[0].text


def test_a_death_save_that_passes_the_turn_to_a_stable_character_says_it_is_stable():
    assert _death_save_handover(["unconscious", "stable"]) == (
        "Ash rolls 7 on a death save and dies. Ilsa acts next (round 3). "
        "Ilsa is stable and unconscious."
    )


def test_a_death_save_that_passes_the_turn_to_a_dying_character_says_it_is_a_death_save():
    assert _death_save_handover(["unconscious"]) == (
        "Ash rolls 7 on a death save and dies. Ilsa acts next (round 3). "
        "Ilsa is dying: their turn is a death save."
    )
