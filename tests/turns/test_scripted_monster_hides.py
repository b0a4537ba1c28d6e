""" "goblin 2 hides [as a bonus action]": the GM narrates a monster's Hide (a goblin's Nimble
Escape), taken by the rules as its Dodge, Dash or Disengage is, where it was not understood."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "bonus"),
    [("goblin 2 hides as a bonus action", True), ("goblin 2 hides", False)],
)
def test_the_gm_narrates_a_goblin_hiding(live_domains, gm, player, text, bonus):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    table.run(player, "end turn", job_id="end")  # Goblin 2's turn

    run = table.run(gm, text, job_id="hide", task="narration")

    taken = [o.structured for o in run.caller.outcomes if o.tool == "combat_action"]
    assert [(t["character_id"], t["action"], t["bonus_action"]) for t in taken] == [
        ("mon-3", "hide", bonus)
    ], run.texts
