""" "whose turn is it?", "who's up?", "what round is it?": answered from the combat's status,
to the one who asks, instead of the help list; outside combat, that no fight is running."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

QUESTIONS = [
    "whose turn is it?",
    "Whose turn is it now?",
    "who's up?",
    "who is up",
    "what round is it?",
    "which round are we in?",
    "is it my turn?",
]


@pytest.mark.parametrize("text", QUESTIONS)
def test_the_question_is_understood(text):
    intent, _match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is s.dnd_whose_turn, text


def test_the_turn_and_round_are_told_privately(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up, round 1
    before = table.revision()
    mine = table.run(player, "whose turn is it?", job_id="whose")
    assert (mine.texts, mine.tools) == (
        [("It is your turn, Ilsa (round 1).", "requester")],
        ["combat_status"],
    )
    assert table.run(gm, "what round is it?", job_id="round").texts == [
        ("It is Ilsa's turn (round 1).", "requester")
    ]
    table.run(player, "end turn", job_id="end")
    assert table.run(player, "who's up?", job_id="up").texts == [
        ("It is Goblin 2's turn (round 1).", "requester")
    ]
    assert table.revision() == before + 1


def test_outside_combat_no_fight_is_running(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    before = table.revision()
    for user in (gm, player):
        run = table.run(user, "whose turn is it?", job_id=f"whose-{user.pk}")
        assert (run.texts, run.tools) == (
            [("No fight is running, so there are no turns or rounds.", "requester")],
            [],
        )
    assert table.revision() == before
