""" "how far can I move?" is answered as "how can I move?" is: the forms of a move and, in
combat, the movement the asker's character has left; it was told "I can only answer from the
game's state"."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

FORMS = "To move, say: move N squares <direction>, move to X,Y or move to <target>."


@pytest.mark.parametrize(
    "text", ["how far can I move?", "How far can we move", "how far can I go?"]
)
def test_on_its_turn_the_movement_left_is_told(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    table.run(player, "move 2 squares south", job_id="step")
    before = table.revision()
    run = table.run(player, text, job_id="how-far")
    assert run.texts == [(f"{FORMS} Ilsa has 20 ft of movement left this turn (speed 30 ft).",
                          "requester")]  # fmt: skip
    assert (run.output.help_only, run.output.suggestions) == (True, ())
    assert table.revision() == before
