"""Help asked for without "I", or as a call to the table ("need help", "help me out",
"somebody help me", "help us") is the help list in either system and from either seat, and a
GM's such request is posted to the GMs alone; so is help with a part of the game asked for
the same ways ("I need help with combat", "can you help me with spells?"), rather than a
guess at a command ("Only the GM can start or end combat"). Naming an ally is still the Help
action."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from apps.turns.agents.scripted import ScriptedAgent, help_text, help_with_text
from tests.turns.test_scripted_help_action import on_the_turn_of
from tests.turns.test_scripted_help_asked import help_reply

CASUAL = [
    "need help",
    "Need help!",
    "need some help",
    "help me out",
    "help us out",
    "somebody help me",
    "someone help us!",
    "can anyone help us?",
    "can you help me please?",
    "help us",
    "please help us",
]
WITH_A_PART = [
    "I need help with combat",
    "need help with spells",
    "can you help me with spells?",
    "could you help us with the rules please?",
    "somebody help me with combat",
    "help me out with moving",
]


@pytest.mark.parametrize("system_id", ["dnd5e", "narrative"])
@pytest.mark.parametrize("text", CASUAL)
def test_help_asked_for_casually_is_the_help_list(system_id, text):
    assert help_reply(text, system_id=system_id, role="player") == [
        (help_text(system_id, gm=False), "requester")
    ]
    assert help_reply(text, system_id=system_id, role="gm") == [
        (help_text(system_id, gm=True), "requester")
    ]


# In dnd5e a part with rows of its own is answered with them (test_scripted_help_with_dnd_topics).
@pytest.mark.parametrize("system_id", ["dnd5e", "narrative"])
@pytest.mark.parametrize("text", WITH_A_PART)
def test_help_with_a_part_asked_for_casually_is_that_parts_help(system_id, text):
    assert help_reply(text, system_id=system_id, role="player") == [
        (help_with_text(system_id, text, gm=False), "requester")
    ]
    assert help_reply(text, system_id=system_id, role="gm") == [
        (help_with_text(system_id, text, gm=True), "requester")
    ]


@pytest.mark.parametrize("system_id", ["dnd5e", "narrative"])
@pytest.mark.parametrize("text", CASUAL + WITH_A_PART)
def test_a_gms_casual_help_request_is_posted_to_the_gms_alone(system_id, text):
    audience = ScriptedAgent.action_audience(system_id=system_id, text=text, audience="public")
    assert audience == "gm"


@pytest.mark.parametrize(
    "text", ["help Ash", "I help Briar", "please help Bram", "help Bram, please"]
)
def test_helping_a_named_ally_is_no_help_request(text):
    assert ScriptedAgent.action_audience(system_id="dnd5e", text=text, audience="public") == (
        "public"
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("help us", help_text("dnd5e", gm=False)),
        ("somebody help me", help_text("dnd5e", gm=False)),
        ("I need help with combat", help_with_text("dnd5e", "help combat", gm=False)),
    ],
)
def test_help_asked_for_casually_in_combat_is_answered(live_domains, gm, player, text, answer):
    table = on_the_turn_of(gm, player, "Ilsa")
    before = table.revision()

    run = table.run(player, text, job_id="help-list")

    assert run.texts == [(answer, "requester")]
    assert (run.output.help_only, run.tools) == (True, [])
    assert table.revision() == before


@pytest.mark.parametrize(
    "text", ["I need help with the oracle", "can you help me with the oracle?", "need help on odds"]
)
def test_help_with_the_oracle_asked_casually_is_the_oracles_help(text):
    assert help_reply(text, system_id="narrative", role="player") == [
        (s.help_topic_text("narrative", "help oracle", gm=False), "requester")
    ]
