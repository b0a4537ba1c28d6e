"""Help asked for politely or casually ("help me please", "pls help", "can you help me?", "I
need help") is the help list, in either system and from either seat, not "I did not
understand that." nor the Help action for an ally named "please"; "please help Bram" is still
the Help action for Bram."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent, help_text, help_with_text
from tests.turns.test_scripted_help_action import on_the_turn_of
from tests.turns.test_scripted_help_asked import help_reply

POLITE = [
    "help me please",
    "Help me please!",
    "help, please",
    "help me, please",
    "help me pls",
    "help plz",
    "pls help",
    "plz help me",
    "please, help",
    "please help",
    "can you help me?",
    "could you please help me?",
    "can someone help?",
    "I need help",
    "i need some help!",
]

HELPED = "Ilsa helps Bram: Bram's next attack on the goblin has advantage, until Ilsa's next turn."


@pytest.mark.parametrize("system_id", ["dnd5e", "narrative"])
@pytest.mark.parametrize("text", POLITE)
def test_help_asked_for_politely_is_the_help_list(system_id, text):
    assert help_reply(text, system_id=system_id, role="player") == [
        (help_text(system_id, gm=False), "requester")
    ]
    assert help_reply(text, system_id=system_id, role="gm") == [
        (help_text(system_id, gm=True), "requester")
    ]


@pytest.mark.parametrize("system_id", ["dnd5e", "narrative"])
@pytest.mark.parametrize("text", POLITE)
def test_a_gms_polite_help_request_is_posted_to_the_gms_alone(system_id, text):
    audience = ScriptedAgent.action_audience(system_id=system_id, text=text, audience="public")
    assert audience == "gm"


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["help me please", "pls help", "I need help"])
def test_help_asked_for_politely_in_combat_is_the_help_list(live_domains, gm, player, text):
    table = on_the_turn_of(gm, player, "Ilsa")
    before = table.revision()

    run = table.run(player, text, job_id="help-list")

    assert run.texts == [(help_text("dnd5e", gm=False), "requester")]
    assert (run.output.help_only, run.tools) == (True, [])
    assert table.revision() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text",
    ["please help Bram", "pls help Bram", "help Bram, please", "help Bram plz", "plz help Bram"],
)
def test_helping_an_ally_politely_is_the_help_action(live_domains, gm, player, text):
    table = on_the_turn_of(gm, player, "Ilsa")

    run = table.run(player, text, job_id="help")

    taken = [o.structured for o in run.caller.outcomes if o.tool == "combat_action"]
    assert [(t["action"], t["ally_name"], t["target_name"]) for t in taken] == [
        ("help", "Bram", "Goblin")
    ], run.texts
    assert run.texts == [(HELPED, "trigger")]


# Thanks said after it closes the request as "please" does: no ally is named "thanks".
THANKED = ["help thanks", "help, thanks", "help me, thank you", "help with spells thanks"]


@pytest.mark.parametrize("system_id", ["dnd5e", "narrative"])
@pytest.mark.parametrize("text", THANKED)
def test_help_asked_for_with_thanks_is_the_help_asked_for(system_id, text):
    assert help_reply(text, system_id=system_id, role="player") == [
        (help_with_text(system_id, text, gm=False), "requester")
    ]
    assert help_reply(text, system_id=system_id, role="gm") == [
        (help_with_text(system_id, text, gm=True), "requester")
    ]
    audience = ScriptedAgent.action_audience(system_id=system_id, text=text, audience="public")
    assert audience == "gm"


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["help thanks", "help, thank you"])
def test_help_asked_for_with_thanks_in_combat_is_the_help_list(live_domains, gm, player, text):
    table = on_the_turn_of(gm, player, "Ilsa")
    before = table.revision()

    run = table.run(player, text, job_id="help-list")

    assert run.texts == [(help_text("dnd5e", gm=False), "requester")]
    assert (run.output.help_only, run.tools) == (True, [])
    assert table.revision() == before


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["help Bram, thanks", "help Bram thank you"])
def test_helping_an_ally_with_thanks_is_the_help_action(live_domains, gm, player, text):
    table = on_the_turn_of(gm, player, "Ilsa")

    run = table.run(player, text, job_id="help")

    taken = [o.structured for o in run.caller.outcomes if o.tool == "combat_action"]
    assert [(t["action"], t["ally_name"], t["target_name"]) for t in taken] == [
        ("help", "Bram", "Goblin")
    ], run.texts
    assert run.texts == [(HELPED, "trigger")]
