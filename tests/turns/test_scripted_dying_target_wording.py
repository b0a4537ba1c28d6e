"""How a hit on a character already down at 0 hit points reads at the table."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _ilsa_down_on_goblin_2s_turn(gm, player, *, failures: int):
    """Ilsa (a fighter, first in the order) at 0 HP with `failures` death-save failures, and
    her turn handed to Goblin 2, who stands beside her."""
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = next(iter(table.characters.values()))
    hp = table.call(gm, "character_get", character_id=ilsa).structured["character"]["hp"]
    table.call(gm, "damage_apply", target_id=ilsa, amount=hp["current"], idempotency_key="down",
               expected_revision=table.revision())  # fmt: skip
    for n in range(failures):  # each hit at 0 HP is a failure
        table.call(gm, "damage_apply", target_id=ilsa, amount=1, idempotency_key=f"fail-{n}",
                   expected_revision=table.revision())  # fmt: skip
    table.run(player, "end turn", job_id="ilsa-ends")
    return table


def test_reasons_for_advantage_about_one_creature_are_said_once(live_domains, gm, player):
    table = _ilsa_down_on_goblin_2s_turn(gm, player, failures=0)
    run = table.run(gm, "Goblin 2 attacks Ilsa", job_id="hit-0")
    assert run.texts == [
        (
            "Critical hit! Goblin 2's Scimitar hits Ilsa (18 to hit): 9 slashing. "
            "(Advantage: Ilsa is prone and unconscious.) "
            "Ilsa takes 2 death-save failures (2 of 3).",
            "trigger",
        )
    ]


def test_a_hit_that_kills_a_dying_character_says_the_failures_that_killed_it(
    live_domains, gm, player
):
    table = _ilsa_down_on_goblin_2s_turn(gm, player, failures=1)
    run = table.run(gm, "Goblin 2 attacks Ilsa", job_id="hit-0")
    # She is already on the ground: she does not "fall"; the third failure is what kills her.
    assert run.texts == [
        (
            "Critical hit! Goblin 2's Scimitar hits Ilsa (18 to hit): 9 slashing. "
            "(Advantage: Ilsa is prone and unconscious.) "
            "Ilsa takes 2 death-save failures (3 of 3). Ilsa dies.",
            "trigger",
        )
    ]
