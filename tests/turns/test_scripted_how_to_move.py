""" "how can I move?": the forms a move is said in, and in combat how far the asker's
character can still go (its movement left on its turn, its speed otherwise)."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

FORMS = "To move, say: move N squares <direction>, move to X,Y or move to <target>."


@pytest.mark.parametrize("text", ["how can I move?", "how do I move?", "How do I walk?"])
def test_on_its_turn_the_forms_and_the_movement_left_are_told(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    table.run(player, "move 2 squares south", job_id="step")
    before = table.revision()
    run = table.run(player, text, job_id="how")
    assert run.texts == [(f"{FORMS} Ilsa has 20 ft of movement left this turn (speed 30 ft).",
                          "requester")]  # fmt: skip
    assert run.output.suggestions == ()
    assert table.revision() == before


def test_off_its_turn_the_speed_is_told(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end")
    run = table.run(player, "how can I move?", job_id="how")
    assert run.texts == [(f"{FORMS} Ilsa's speed is 30 ft a turn.", "requester")]


def test_the_gm_is_told_the_forms(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(gm, "how do I move?", job_id="how")
    assert run.texts == [(FORMS, "requester")]


def test_out_of_combat_the_forms_are_told(table, player):
    run = table.run(player, "how do I move?", job_id="how")
    assert run.texts == [(FORMS, "requester")]
