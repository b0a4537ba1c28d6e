"""Help asked for as a table asks ("help me", "help please", "what can I say?", "list
commands") is the help list itself, not "I did not understand that." before it."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent, help_text
from apps.turns.types import TurnContext


def _reply(text: str, *, role: str = "player") -> list[tuple[str, str]]:
    turn = TurnContext(
        job_id="help",
        system_id="dnd5e",
        phase="lobby",
        role=role,
        task="action",
        text=text,
        tools=(),
    )
    output = ScriptedAgent().run_turn(turn, lambda tool, arguments: pytest.fail(tool))
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
    assert _reply(text) == [(help_text("dnd5e", gm=False), "requester")]
    assert _reply(text, role="gm") == [(help_text("dnd5e", gm=True), "requester")]


# A mark set apart by a space ("help ?", as some keyboards type it) or an emoji closing the
# line: the line still only asks for help, as the audience of a GM's request already read it,
# rather than the Help action for an ally named "?".
@pytest.mark.parametrize("text", ["help ?", "help !", "  help  ?! ", "help …", "help 🙏"])
def test_help_with_its_closing_mark_set_apart_is_the_help_list(text):
    assert _reply(text) == [(help_text("dnd5e", gm=False), "requester")]
    assert _reply(text, role="gm") == [(help_text("dnd5e", gm=True), "requester")]
    assert ScriptedAgent.action_audience(system_id="dnd5e", text=text, audience="public") == "gm"
