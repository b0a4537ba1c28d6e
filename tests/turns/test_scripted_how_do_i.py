""" "how do I attack?", "how can I move?", "how do I open a thread?": a new player asks how a
command is said; the answer is that command's form (and its first words to press), not the
list of questions the game's state answers, nor a question for the GM or the oracle."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "reply", "offered"),
    [
        ("how do I attack?", "To attack, say: attack <target> [with <weapon>].", ()),
        ("How can I move?",
         "To move, say: move N squares <direction>, move to X,Y or move to <target>. Ilsa has "
         "30 ft of movement left this turn (speed 30 ft).", ()),
        ("how do I walk over there?",
         "To move, say: move N squares <direction>, move to X,Y or move to <target>. Ilsa has "
         "30 ft of movement left this turn (speed 30 ft).", ()),
        ("how do I roll dice?", "Say: roll <dice>.", ()),
        ("how do I end my turn?", "To end a turn, say: end turn (or pass).", ("end turn",)),
    ],
)  # fmt: skip
def test_how_a_command_is_said_is_answered_with_its_form(
    live_domains, gm, player, text, reply, offered
):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="how")
    assert run.texts == [(reply, "requester")]
    assert run.output.suggestions == offered
    assert table.revision() == before


def test_a_how_question_about_nothing_the_grammar_knows_gets_the_questions(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, "how do I win?", job_id="how")
    assert run.texts == [
        ("I can only answer from the game's state: whose turn is it?, what can I do?, where am "
         "I?, is <name> dead?, how many goblins are there?, or “describe” (say “help” for every "
         "command).", "requester"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("seat", "text", "reply"),
    [
        ("gm", "how do I open a thread?", "To open a thread, say: open thread <title>."),
        ("player", "how do I open a thread?", "Only the GM can open or resolve a thread."),
        ("gm", "how can I make a clock?",
         "To create a clock, say: create clock <name> with N segments (e.g. create clock Doom 6)."),
    ],
)  # fmt: skip
def test_in_a_story_how_a_command_is_said_is_no_question_for_the_oracle(
    story, gm, player, seat, text, reply
):
    run = story.run(gm if seat == "gm" else player, text, job_id="how")
    assert run.texts == [(reply, "requester")]
