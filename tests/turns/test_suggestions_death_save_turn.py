"""A death save that kills passes the turn: the options offered for it state that turn and its
round (a new one when the turn wraps), as the death save's result says, so publication names
them with it and not with a later turn the room has reached."""

from __future__ import annotations

from apps.turns.types import OfferedTurn
from tests.turns.test_scripted_conditions import _combatant
from tests.turns.test_suggestions_attack_turn import _run


def test_a_death_save_that_passes_the_turn_states_the_next_turn_and_its_round():
    order = [
        _combatant("pc-2", "Bram", "pc"),
        _combatant("mon-3", "Wolf", "monster"),
        _combatant("pc-1", "Ash", "pc", status="down", conditions=["prone", "unconscious"]),
    ]
    output = _run(
        "death save",
        ("combat_status", "death_save"),
        {
            "combat_status": {"combat": {"round": 2, "current": "pc-1", "order": order}},
            # Ash was last in the order: the turn wraps into round 3.
            "death_save": {"outcome": "dead", "natural": 4, "current": "pc-2", "round": 3},
        },
    )
    assert output.suggestions_for == {"pc-2": ("attack the wolf", "end turn")}
    assert output.turn == OfferedTurn("combat", 3, "pc-2")
