""" "what can you cast?", "how many hp do you have?": a character's spells or numbers asked of
"you", the game master the line is said to, who has no character. Nobody at the table is called
"you": the asker is told the questions that read a character (their own, or a named one), and
nothing is looked up or changed."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_spells_of_a_named_character import _table

pytestmark = pytest.mark.django_db

SPELLS_OF_YOU = [
    "what can you cast?",
    "what can you cast",
    "What can you cast?",
    "what spells do you have?",
    "what spells do you know?",
    "which spells can you cast?",
    "what spells does you have?",
    "how many spell slots do you have left?",
    "what are your spells?",
    "your spells",
    "show your spell slots",
    "what can yourself cast?",
]
NUMBERS_OF_YOU = [
    "how many hp do you have?",
    "how much hp do you have left?",
    "How many hit points have you got?",
    "what's your hp?",
    "whats your hp",
    "what is your AC?",
    "what's your armor class?",
    "your hit points",
    "show me your character sheet",
    "what are your conditions?",
]
OWN_SPELLS = "what spells do I have?"
OWN_NUMBERS = "what's my hp?"
# What a player with a character is told, and what the GM or a player with none is.
SPELLS_HINTS = (
    f"I have no spells of my own: ask “{OWN_SPELLS}” for your character's, or “what spells does "
    "<name> have?” for another's.",
    "I have no spells of my own: ask “what spells does <name> have?” for a character's.",
)
NUMBERS_HINTS = (
    f"I have no character of my own: ask “{OWN_NUMBERS}” for your character's, or “look at "
    "<name>” for another's.",
    "I have no character of my own: ask “look at <name>” for a character's.",
)
ASKED = [(text, SPELLS_HINTS, OWN_SPELLS) for text in SPELLS_OF_YOU] + [
    (text, NUMBERS_HINTS, OWN_NUMBERS) for text in NUMBERS_OF_YOU
]


def _run_unchanged(table, who, text):
    """The run of `text` by `who`, checked to have looked up and changed nothing."""
    before = table.revision()
    run = table.run(who, text, job_id="asked")
    assert (run.output.help_only, run.tools) == (True, [])
    assert table.revision() == before
    return run


@pytest.mark.parametrize("text, hints, own", ASKED)
def test_a_player_asking_of_you_is_told_how_to_ask_for_their_characters(
    live_domains, gm, player, text, hints, own
):
    run = _run_unchanged(_table(gm, player), player, text)
    assert run.texts == [(hints[0], "requester")]
    assert run.output.suggestions == (own,)


@pytest.mark.parametrize(
    "asker, text, hints",
    [
        ("gm", "what can you cast?", SPELLS_HINTS),
        ("gm", "what spells do you have?", SPELLS_HINTS),
        ("gm", "how many hp do you have?", NUMBERS_HINTS),
        ("gm", "what's your AC?", NUMBERS_HINTS),
        ("no character", "what can you cast?", SPELLS_HINTS),
        ("no character", "your hp", NUMBERS_HINTS),
    ],
)
def test_one_with_no_character_asking_of_you_is_told_how_to_ask_for_one(
    live_domains, gm, player, asker, text, hints
):
    """The GM, or a player with no character: their own question would only say they have
    none."""
    if asker == "gm":
        table, who = _table(gm, player), gm
    else:
        table, who = make_table("dnd5e", gm, player), player
        table.run(gm, "set phase play", job_id="play")
    run = _run_unchanged(table, who, text)
    assert run.texts == [(hints[1], "requester")]
    assert run.output.suggestions == ()


def test_the_own_questions_offered_read_the_askers_character(live_domains, gm, player):
    table = _table(gm, player)
    numbers = table.run(player, OWN_NUMBERS, job_id="numbers")
    assert numbers.tools == ["character_get"]
    assert numbers.texts[0][0] == (
        "Ilsa (cleric, level 3): 24/24 HP, AC 18, speed 30 ft; attacks: Mace, Unarmed Strike."
    )
    spells = table.run(player, OWN_SPELLS, job_id="spells")
    assert spells.tools == ["character_get"]
    assert spells.texts[0][0] == (
        "Ilsa's spells: Sacred Flame (cantrip), Bless (level 1), Cure Wounds (level 1), Healing "
        "Word (level 1), Shield of Faith (level 1). Spell slots left: level 1: 4 of 4, level 2: 2 "
        "of 2."
    )


@pytest.mark.parametrize("text", ["attack you", "attack yourself", "look at you"])
def test_naming_you_as_a_creature_says_the_gm_has_none_and_who_is_here(
    live_domains, gm, player, text
):
    """Saying "attack you" names the game master, who is no creature at the table, not a name
    that was mistyped ("I cannot find “you” here")."""
    from tests.turns.test_scripted_agent import dnd_table_in_combat

    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, the player's character, is up
    before = table.revision()
    run = table.run(player, text, job_id="you")
    assert run.texts == [
        ("I have no creature of my own here: name one who is. Present: Ilsa, Goblin 2, Goblin.",
         "requester")
    ]  # fmt: skip
    assert table.revision() == before
