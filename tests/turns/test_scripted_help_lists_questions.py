"""The help list names the questions the grammar already answers: a character's spells and
slots, "am I poisoned?" and "how far can I move?" for a player, a monster's HP for the GM alone
(a player is told only its status). They were understood but not listed."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import help_text
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

PLAYER_LINES = [
    "- what spells do I have?, how many spell slots do I have left?, what spells does <name> have?",
    "- is <target> dead? (or alive, hurt, poisoned, prone...), am I poisoned?, how hurt is "
    "<target>?, how many goblins are there?, who's here?, where am I?, how far can I move?, "
    "what can I do?",
]
GM_LINES = [
    "- describe, or look at <target>; whose turn is it?, who's next?, who's winning?; what's "
    "<target>'s hp? (a monster's: to you alone)",
    "- what spells does <name> have?, how many spell slots does <name> have left?",
    "- is <target> dead? (or alive, hurt, poisoned, prone...), how hurt is <target>?, how many "
    "goblins are there?, who's here?, where am I?, how can I move?, what can I do?",
]


def test_a_player_reads_the_questions_about_their_character():
    lines = help_text("dnd5e", gm=False).split("\n")
    assert lines[-2:] == PLAYER_LINES
    assert "what's <target>'s hp?" not in "\n".join(lines)


def test_the_gm_reads_a_monsters_hp_and_no_character_questions():
    lines = help_text("dnd5e", gm=True).split("\n")
    assert lines[-3:] == GM_LINES
    assert not any(q in "\n".join(lines) for q in ("spells do I have", "am I poisoned"))


@pytest.mark.parametrize(
    ("seat", "text", "reply"),
    [
        ("player", "what spells do I have?", "Ilsa knows no spells and has no spell slots."),
        ("player", "how many spell slots do I have left?",
         "Ilsa knows no spells and has no spell slots."),
        ("player", "am I poisoned?", "No: Ilsa is unhurt."),
        ("player", "how far can I move?",
         "To move, say: move N squares <direction>, move to X,Y or move to <target>. Ilsa has "
         "30 ft of movement left this turn (speed 30 ft)."),
        ("gm", "what's the goblin's hp?", "Goblin: 7/7 HP."),
        ("gm", "how can I move?",
         "To move, say: move N squares <direction>, move to X,Y or move to <target>."),
    ],
)  # fmt: skip
def test_each_question_listed_is_answered(live_domains, gm, player, seat, text, reply):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (a fighter) is up
    before = table.revision()
    run = table.run(gm if seat == "gm" else player, text, job_id="asked")
    assert [said for said, _audience in run.texts] == [reply]
    assert table.revision() == before
