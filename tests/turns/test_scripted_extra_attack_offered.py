"""The scripted agent offers a fighter with Extra Attack the attacks its Attack action has
left: the rules let the first attack spend the action and keep the rest in `attacks_left`."""

from __future__ import annotations

from apps.turns.agents import scripted
from tests.turns.test_scripted_conditions import _combatant


def _options(budget: dict[str, int]) -> list[str]:
    ash = scripted._combatant(_combatant("pc-1", "Ash", "pc", budget=budget))
    wolf = scripted._combatant(_combatant("mon-2", "Wolf", "monster"))
    return scripted._turn_options(ash, [wolf], gm=False)


def test_a_fighter_with_an_attack_of_the_action_left_is_offered_it():
    assert _options({"action": 0, "attacks_left": 1, "movement": 30}) == [
        "attack the wolf",
        "end turn",
    ]


def test_a_fighter_whose_action_is_spent_is_offered_no_attack():
    assert _options({"action": 0, "movement": 30}) == ["end turn"]
