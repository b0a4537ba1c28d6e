"""Help asked for as a table asks ("help me", "help please", "what can I say?", "list
commands") is the help list itself, not "I did not understand that." before it."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent, help_text
from apps.turns.types import TurnContext


def help_reply(text: str, *, system_id: str = "dnd5e", role: str = "player"):
    """A lobby turn's reply to `text`, as (text, audience) pairs; it must be only help."""
    turn = TurnContext(
        job_id="help",
        system_id=system_id,
        phase="lobby",
        role=role,
        task="action",
        text=text,
        tools=(),
    )
    output = ScriptedAgent().run_turn(turn, lambda tool, arguments: pytest.fail(tool))
    assert output.help_only is True
    return [(m.text, m.audience) for m in output.messages]


@pytest.mark.parametrize(
    "text",
    [
        "help",
        "Help me!",
        "help please",
        "please help",
        "What can I say?",
        "commands",
        "list commands",
        "show me the commands",
    ],
)
def test_help_asked_for_in_a_tables_words_is_the_help_list(text):
    assert help_reply(text) == [(help_text("dnd5e", gm=False), "requester")]
    assert help_reply(text, role="gm") == [(help_text("dnd5e", gm=True), "requester")]


# A mark set apart by a space ("help ?", as some keyboards type it) or an emoji closing the
# line: the line still only asks for help, as the audience of a GM's request already read it,
# rather than the Help action for an ally named "?".
@pytest.mark.parametrize("text", ["help ?", "help !", "  help  ?! ", "help …", "help 🙏"])
def test_help_with_its_closing_mark_set_apart_is_the_help_list(text):
    assert help_reply(text) == [(help_text("dnd5e", gm=False), "requester")]
    assert help_reply(text, role="gm") == [(help_text("dnd5e", gm=True), "requester")]
    assert ScriptedAgent.action_audience(system_id="dnd5e", text=text, audience="public") == "gm"
