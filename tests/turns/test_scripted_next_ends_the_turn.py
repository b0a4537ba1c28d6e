""" "next" said in combat by the one whose turn it is (the GM, for a monster) ends the turn as
"end turn" does; it was not understood. Outside combat it names nothing to end, and on a
character's turn the GM is not taken to end it on a guess."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

ENDS = ["combat_status", "combat_end_turn", "combat_status"]


@pytest.mark.parametrize("text", ["next", "Next!", "next please"])
def test_the_acting_player_saying_next_ends_the_turn(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up, then Goblin 2, Goblin
    run = table.run(player, text, job_id="next")
    assert run.texts == [("Ilsa ends the turn. Goblin 2 acts next (round 1).", "trigger")]
    assert run.tools == ENDS


def test_the_gm_saying_next_ends_a_monsters_turn(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="ilsa")
    run = table.run(gm, "next", job_id="next")
    assert run.texts == [("Goblin 2 ends the turn. Goblin acts next (round 1).", "trigger")]
    assert run.tools == ENDS


def test_the_gm_saying_next_on_a_characters_turn_is_told_how_to_end_it(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, "next", job_id="next")
    assert run.texts == [
        ("It is Ilsa's turn, its player's to end: to end it anyway, say: end Ilsa's turn.",
         "requester")
    ]  # fmt: skip
    assert run.output.suggestions[0] == "end Ilsa's turn"
    assert "combat_end_turn" not in run.tools
    assert table.revision() == before


def test_a_player_saying_next_off_their_turn_is_told_to_wait(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="ilsa")
    before = table.revision()
    run = table.run(player, "next", job_id="next")
    assert run.texts == [("It is Goblin 2's turn: wait for yours.", "requester")]
    assert "combat_end_turn" not in run.tools
    assert table.revision() == before


def test_next_outside_combat_is_not_understood(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    before = table.revision()
    run = table.run(player, "next", job_id="next")
    assert run.texts == [
        ("I did not understand that. Say “help” for everything I understand.", "requester")
    ]
    assert (run.output.help_only, run.tools) == (True, [])
    assert table.revision() == before
