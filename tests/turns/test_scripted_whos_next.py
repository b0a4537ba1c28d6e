""" "who's next?", "whose turn is next?": answered from the combat's initiative order with
whose turn comes after the current one (living combatants only, a new round after the last),
to the one who asks; outside combat, that no fight is running."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db

QUESTIONS = [
    "who's next?",
    "Who is next",
    "who’s next now?",
    "who goes next?",
    "whose turn is next?",
    "whose turn is it next?",
    "who's up next?",
]


@pytest.mark.parametrize("text", QUESTIONS)
def test_the_question_is_understood(text):
    intent, _match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is s.dnd_whose_next, text


def test_the_next_turn_in_initiative_order_is_told_privately(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2, Goblin; Ilsa is up
    before = table.revision()
    mine = table.run(player, "who's next?", job_id="next-1")
    assert (mine.texts, mine.tools) == (
        [("Goblin 2 is next, after Ilsa (round 1).", "requester")],
        ["combat_status"],
    )
    assert table.revision() == before
    table.run(gm, "end Ilsa's turn", job_id="end-ilsa")
    table.run(gm, "end turn", job_id="end-goblin-2")
    # After the last in the order comes the first, in a new round.
    assert table.run(player, "who is next", job_id="next-2").texts == [
        ("You are next, Ilsa, after Goblin (round 2).", "requester")
    ]
    assert table.run(gm, "whose turn is next?", job_id="next-3").texts == [
        ("Ilsa is next, after Goblin (round 2).", "requester")
    ]


def test_a_dead_combatant_is_passed_over(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    # Goblin 2 (mon-3) comes after Ilsa; it dies before its turn.
    _gm_write(table, "damage_apply", target_id="mon-3", amount=50)
    assert table.run(player, "who's next?", job_id="next-dead").texts == [
        ("Goblin is next, after Ilsa (round 1).", "requester")
    ]


def test_outside_combat_no_fight_is_running(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    for user in (gm, player):
        run = table.run(user, "who's next?", job_id=f"next-{user.pk}")
        assert (run.texts, run.tools) == (
            [("No fight is running, so there are no turns or rounds.", "requester")],
            [],
        )
