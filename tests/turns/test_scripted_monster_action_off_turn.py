""" "the goblin hides" said by the GM as an action: off the goblin's turn the GM is told plainly
whose turn it is; on it, that a monster's Hide (Dash, Disengage, Dodge) is sent as narration,
where the rules take it. Never a bare "Closest: hide"."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("the goblin hides", "It is Ilsa's turn, not Goblin's: Goblin acts on its own turn."),
        ("goblin 2 hides", "It is Ilsa's turn, not Goblin 2's: Goblin 2 acts on its own turn."),
        ("goblin 2 dodges", "It is Ilsa's turn, not Goblin 2's: Goblin 2 acts on its own turn."),
    ],
)
def test_off_its_turn_the_gm_is_told_whose_turn_it_is(live_domains, gm, player, text, reply):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up
    before = table.revision()
    run = table.run(gm, text, job_id="hide")
    assert run.texts == [(reply, "requester")]
    assert run.tools == ["combat_status"]
    assert table.revision() == before


def test_on_its_turn_the_gm_is_told_to_narrate_it(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end")  # Goblin 2's turn
    before = table.revision()
    run = table.run(gm, "goblin 2 hides", job_id="hide")
    assert run.texts == [
        ("Send it as narration: a monster's Hide, Dash, Disengage or Dodge is taken from the "
         "GM's narration.", "requester"),
    ]  # fmt: skip
    assert table.revision() == before


def test_said_by_a_player_of_a_goblin_it_is_still_not_theirs(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, "goblin 2 hides", job_id="hide")
    assert run.texts == [("You can only act as your own character.", "requester")]


@pytest.mark.parametrize(
    ("text", "reply", "offered"),
    [
        ("the wind dashes", "I did not understand that. Say “help” for everything I understand.",
         ()),
        ("Ilsa dodges",
         "I did not understand that. Closest: dodge. Say “help” for everything I understand.",
         ("dodge",)),
    ],
)  # fmt: skip
def test_nobody_here_or_a_character_on_its_turn_is_not_taken_as_a_monsters_action(
    live_domains, gm, player, text, reply, offered
):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up
    run = table.run(gm, text, job_id="dash")
    assert run.texts == [(reply, "requester")]
    assert run.output.suggestions == offered
