""" "goblin 2 hides as a bonus action" after its Dash: the narration no longer says its action
is left when the Dash spent it; with the action unspent it still says so."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _goblin_2_up(gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    table.run(player, "end turn", job_id="end")  # Goblin 2's turn
    return table


def test_a_bonus_action_after_the_action_says_the_action_is_spent(live_domains, gm, player):
    table = _goblin_2_up(gm, player)
    table.run(gm, "goblin 2 dashes", job_id="dash", task="narration")

    run = table.run(gm, "goblin 2 hides as a bonus action", job_id="hide", task="narration")

    assert run.texts == [
        (
            "Goblin 2 hides: Stealth 20 beats the foes' best passive Perception 13. Hidden, "
            "Goblin 2 attacks with advantage and is attacked with disadvantage until attacking. "
            "That was a bonus action; Goblin 2's action is already spent.",
            "trigger",
        )
    ]


def test_a_bonus_action_before_the_action_says_the_action_is_left(live_domains, gm, player):
    table = _goblin_2_up(gm, player)

    run = table.run(gm, "goblin 2 hides as a bonus action", job_id="hide", task="narration")

    assert run.texts == [
        (
            "Goblin 2 hides: Stealth 20 beats the foes' best passive Perception 13. Hidden, "
            "Goblin 2 attacks with advantage and is attacked with disadvantage until attacking. "
            "That was a bonus action: Goblin 2's action is left.",
            "trigger",
        )
    ]
