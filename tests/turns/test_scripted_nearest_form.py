"""Text that is not understood but names a thing the grammar knows (a thread, a clock, combat,
a turn...) is answered with the nearest command for it, not the whole help list; a player is
told what is the GM's to do. Text that names nothing known is pointed to "help"."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db

HELP_AFTER = " (or say “help” for what I understand)."
NOT_UNDERSTOOD = "I did not understand that. Say “help” for everything I understand."


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("thread Find the warden", "To open a thread, say: open thread <title>"),
        ("please make a thread about the warden", "To open a thread, say: open thread <title>"),
        (
            "the warden thread is done",
            "To resolve a thread, say: resolve thread <title>[: how it ended]",
        ),
        (
            "clock Doom 6",
            "To create a clock, say: create clock <name> with N segments "
            "(e.g. create clock Doom 6)",
        ),
        ("tick the clock", "To advance a clock, say: advance clock <name> [by N]"),
        ("the scene is over", "To end the scene, say: end scene"),
        ("scene: The Mill", "To open a scene, say: open scene <title>"),
        ("fact the duke lies", "To record a fact, say: record fact <text> [gm only]"),
        ("phase play", "To set the phase, say: set phase <lobby|play>"),
    ],
)
def test_a_gm_is_told_the_nearest_form_of_what_they_named(story, text, form):
    before = story.revision()
    run = story.run(story.gm, text, job_id=text)
    assert run.texts == [(f"I did not understand that. {form}{HELP_AFTER}", "requester")]
    assert run.output.help_only is True
    assert story.revision() == before


def test_a_complete_nearest_form_is_offered_to_press(story):
    run = story.run(story.gm, "the scene is over", job_id="over")
    assert run.output.suggestions == ("end scene",)
    opened = story.run(story.gm, "thread Find the warden", job_id="thread")
    assert opened.output.suggestions == ()


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("thread Find the warden", "open or resolve a thread"),
        ("advnce clock Tide rises", "create or advance a clock"),
        ("the scene is over", "open or end a scene"),
        ("fact the duke lies", "record a fact"),
    ],
)
def test_a_player_is_told_the_thing_they_named_is_the_gms(story, text, what):
    run = story.run(story.player, text, job_id=text)
    assert run.texts == [
        (
            f"I did not understand that. Only the GM can {what} (say “help” for what you can do).",
            "requester",
        )
    ]
    assert run.output.suggestions == ()


def test_text_naming_nothing_known_is_pointed_to_help(story):
    run = story.run(story.gm, "dance a jig", job_id="jig")
    assert run.texts == [(NOT_UNDERSTOOD, "requester")]


def test_dnd5e_names_combat_turns_checks_and_the_phase(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    for user, text, form, suggestion in [
        (gm, "combat with 2 goblins", "To start combat, say: start combat [with goblin, 2 orcs]",
         None),
        (gm, "combat is over", "To end combat, say: end combat", "end combat"),
        (gm, "phase play", "To set the phase, say: set phase <lobby|play>", None),
        (gm, "skip this turn", "To end a turn, say: end turn, or end <name>'s turn",
         "end turn"),
        (player, "skip my turn", "To end a turn, say: end turn (or pass)", "end turn"),
        (player, "do a stealth check now", "To make a check or a save, say: check <ability or "
         "skill> [dc N], or save <ability> [dc N]", None),
        (gm, "a stealth check for the goblin now", "To make a check or a save, say: perception "
         "check for <name> [dc N], or dex save for <name> [dc N]", None),
        (player, "goblin attack", "To attack, say: attack <target> [with <weapon>]", None),
        (gm, "goblin attack", "To attack, say: <name> attacks <target>", None),
        # ("drink a potion" is understood: test_scripted_potion_words.)
        (player, "smash a potion", "To heal, say: heal <target> (a potion)", None),
        (player, "a perception test", None, None),
    ]:  # fmt: skip
        run = table.run(user, text, job_id=text)
        if form is None:
            assert run.texts == [(NOT_UNDERSTOOD, "requester")]
            continue
        assert run.texts == [(f"I did not understand that. {form}{HELP_AFTER}", "requester")]
        assert run.output.suggestions == ((suggestion,) if suggestion else ()), text
    refused = table.run(player, "strat combat with 2 goblins", job_id="strat")
    assert refused.texts == [
        (
            "I did not understand that. Only the GM can start or end combat"
            " (say “help” for what you can do).",
            "requester",
        )
    ]


def test_a_question_naming_a_thing_keeps_its_own_answer(story):
    """ "is the clock ticking?" is for the oracle, as before, not a clock's command."""
    run = story.run(story.player, "is the clock ticking?", job_id="q")
    assert run.output.suggestions == ("ask the oracle “Is the clock ticking?”",)


def test_asking_whose_turn_it_is_is_not_offered_the_end_of_a_turn(live_domains, gm, player):
    """ "whose turn is it" names a turn but asks nothing to be ended: no "end turn" to press,
    only the answer."""
    table = make_table("dnd5e", gm, player)
    for text in ("whose turn is it", "is it my turn"):
        run = table.run(player, text, job_id=text)
        assert run.texts == [("No fight is running, so there are no turns or rounds.", "requester")]
        assert run.output.suggestions == ()
