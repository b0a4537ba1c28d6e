""" "how much hp do I have?", "how many hit points do I have left?": a new player's way of
asking "what's my hp?", answered with their character's line, not the list of questions."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

SHEET = "Ilsa (fighter, level 1): 12/12 HP, AC 16, speed 30 ft; attacks: Longsword, Unarmed Strike."


@pytest.mark.parametrize(
    "text",
    [
        "how much hp do I have?",
        "how many hit points do I have left?",
        "how much health do I have",
        "how many HP have I got?",
    ],
)
def test_hit_points_asked_in_a_players_words_read_the_sheet(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="hp")
    assert run.texts == [(SHEET, "requester")]
    assert table.revision() == before


def test_hit_points_in_a_question_of_counting_are_not_a_sheet(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, "how many hit points does the goblin have?", job_id="hp")
    assert run.texts == [("Goblin: unhurt (its hit points are the GM's to know).", "requester")]
