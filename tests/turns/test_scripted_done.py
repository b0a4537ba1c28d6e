""" "I'm done", "done": a player finished with their turn is pointed at ending it, as "skip my
turn" is, instead of the whole help list; nothing is ended on a guess."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

HELP_AFTER = " (or say “help” for what I understand)."


@pytest.mark.parametrize("text", ["I'm done", "done.", "I am done!", "all done", "I’m finished"])
def test_a_player_who_is_done_is_pointed_at_ending_the_turn(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="done")
    assert run.texts == [
        (f"I did not understand that. To end a turn, say: end turn (or pass){HELP_AFTER}",
         "requester")
    ]  # fmt: skip
    assert run.output.suggestions == ("end turn",)
    assert run.tools == []
    assert table.revision() == before
