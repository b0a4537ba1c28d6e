"""The row of questions ("is <target> dead?", "where am I?", "what can I do?") was in the
Moving and Conditions sections, where no one looks for how to ask what they can do; it is in
the first section, Combat, with the other questions a turn asks, and in no other."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import DND_HELP_TOPICS, help_with_text

PLAYER_QUESTIONS = (
    "- is <target> dead? (or alive, hurt, poisoned, prone...), am I poisoned?, how hurt is "
    "<target>?, how many goblins are there?, who's here?, where am I?, how far can I move?, "
    "what can I do?"
)
GM_QUESTIONS = (
    "- is <target> dead? (or alive, hurt, poisoned, prone...), how hurt is <target>?, how many "
    "goblins are there?, who's here?, where am I?, how can I move?, what can I do?"
)


@pytest.mark.parametrize(("gm", "questions"), [(False, PLAYER_QUESTIONS), (True, GM_QUESTIONS)])
def test_the_questions_are_in_the_first_section_alone(gm, questions):
    holding = [
        key
        for key, _title, _words in DND_HELP_TOPICS
        if questions in help_with_text("dnd5e", f"help {key}", gm=gm).splitlines()
    ]
    assert holding == ["combat"]
    assert DND_HELP_TOPICS[0][0] == "combat"


def test_a_players_help_with_moving_is_the_moves_alone():
    assert help_with_text("dnd5e", "help moving", gm=False) == (
        "Moving:\n"
        "- move to X,Y, move to <target>, move 2 squares north or move 10 feet east; <name> "
        "moves to X,Y (or walks east, moves next to <name>); end turn or pass (in combat)\n"
        "Say “help” for every command."
    )


def test_a_players_help_with_conditions_is_the_conditions_alone():
    assert help_with_text("dnd5e", "help conditions", gm=False) == (
        "Conditions:\n"
        "- death save (at 0 HP); stand up (or <name> gets up); heal <target> or heal me "
        "(a potion)\n"
        "Say “help” for every command."
    )
