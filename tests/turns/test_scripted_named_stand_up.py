"""A creature stood up by name ("the goblin stands up", "Ilsa gets up"), as the GM says it:
by the same rules as "stand up"; a player names only their own character."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_gm_stand_up import _goblins_turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", ["the goblin stands up", "Goblin gets up."])
def test_the_gm_stands_a_creature_up_by_name(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    _goblins_turn(table, gm, player)  # the goblin (mon-2), prone, is up
    stood = table.run(gm, text, job_id="g-stand")
    assert [o.structured["character_id"] for o in stood.caller.outcomes
            if o.tool == "stand_up"] == ["mon-2"]  # fmt: skip
    assert stood.texts == [("Goblin stands up, using 15 ft of movement (15 ft left).", "trigger")]


def test_a_player_stands_their_own_character_up_by_name(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    table.run(gm, "knock Ilsa prone", job_id="knock")
    stood = table.run(player, "Ilsa stands up", job_id="p-stand")
    assert stood.texts == [("Ilsa stands up, using 15 ft of movement (15 ft left).", "trigger")]


def test_a_player_cannot_stand_another_creature_up(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    refused = table.run(player, "goblin 2 stands up", job_id="p-stand-goblin")
    assert refused.texts == [("You can only act as your own character.", "requester")]
    assert "stand_up" not in refused.tools
    assert table.revision() == before


def test_a_subject_that_is_no_creature_here_is_answered_with_those_present(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(gm, "the sun gets up", job_id="sun-up")
    assert run.texts == [
        ("I cannot find “the sun” here. Present: Ilsa, Goblin 2, Goblin.", "requester")
    ]
