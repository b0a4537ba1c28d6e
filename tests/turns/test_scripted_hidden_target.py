""" "move to goblin 2" when Goblin 2 is hidden: a player's read of the combat does not say
where a hidden monster stands, so the scripted GM says it is hidden rather than that moving
happens on the grid, and nothing is called."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def test_moving_beside_a_hidden_monster_says_it_is_hidden(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    table.run(player, "end turn", job_id="end")  # Goblin 2's turn
    hid = table.run(gm, "goblin 2 hides as a bonus action", job_id="hide", task="narration")
    assert hid.texts[0][0].startswith("Goblin 2 hides: Stealth 20 beats")
    table.run(gm, "end turn", job_id="end2")
    table.run(gm, "end turn", job_id="end3")  # Ilsa's turn
    before = table.revision()

    run = table.run(player, "move to goblin 2", job_id="move")

    assert run.texts == [
        (
            "Goblin 2 is hidden: where it stands is not shown. Move to a square: move to 4,5.",
            "requester",
        )
    ]
    assert [o.tool for o in run.caller.outcomes if o.tool == "combat_move"] == []
    assert table.revision() == before
