""" "goblin 2 dashes" while Goblin 2 hides: the GM's public combat action for a hidden monster
tells the room only that it acted, unseen; its movement left (which says how far it went) is
told to the GM alone."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _goblin_2_hidden(gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    table.run(player, "end turn", job_id="end")  # Goblin 2's turn
    hid = table.run(gm, "goblin 2 hides as a bonus action", job_id="hide", task="narration")
    assert hid.texts[0][0].startswith("Goblin 2 hides: Stealth 20 beats"), hid.texts
    return table


def test_a_hidden_monsters_dash_tells_the_room_only_that_it_dashed(live_domains, gm, player):
    table = _goblin_2_hidden(gm, player)

    run = table.run(gm, "goblin 2 dashes", job_id="dash", task="narration")

    assert run.texts == [
        ("Goblin 2 dashes, unseen.", "trigger"),
        ("Goblin 2 dashes: 30 ft more movement this turn (60 ft left).", "gm"),
    ]


def test_a_hidden_monsters_disengage_tells_the_room_only_that_it_disengaged(
    live_domains, gm, player
):
    table = _goblin_2_hidden(gm, player)

    run = table.run(gm, "goblin 2 disengages", job_id="disengage", task="narration")

    assert run.texts == [
        ("Goblin 2 disengages, unseen.", "trigger"),
        ("Goblin 2 disengages: moving this turn provokes no opportunity attacks (30 ft of "
         "movement left).", "gm"),
    ]  # fmt: skip
