"""The corrections a GM's narration turn sends the model (a real local fake chat-completions
server and a live dnd5e server) speak of the GM's narration, not of a player's request: the
narration is already in the room, and the model tells the GM what the rules did or could not do,
or answers with no message when it needs nothing of the rules."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import agent
from tests.turns.test_openai_endpoint_answers import refusal

pytestmark = pytest.mark.django_db

TOLD = json.dumps({"messages": [{"text": "Nothing to apply.", "audience": "gm"}]})


def _narrate(table, llm, text: str, *, trigger: str = "public"):
    turn = table.context(table.gm, text, job_id="j1", task="narration", trigger_audience=trigger)
    return agent(llm).run_turn(turn, table.caller(table.gm, turn))


def test_a_refused_narration_is_told_to_tell_the_gm_or_stay_silent(table, llm):
    llm.script = [(200, refusal("I can't help with that.")), (200, completion(content=TOLD))]
    output = _narrate(table, llm, "The ogre tears the door from its hinges.")
    assert output.messages == (AgentMessage("Nothing to apply.", "gm"),)
    assert llm.requests[1]["messages"][-1]["content"] == (
        'Your answer was invalid: the answer is a refusal ("I can\'t help with that."); if '
        "the rules cannot apply what the GM's narration says, say so in a message to the 'gm' "
        'audience; if it needs nothing of the rules, answer {"messages": []}. Reply with only '
        "the JSON object described in the instructions."
    )


def test_a_narration_refused_after_tool_calls_is_told_to_tell_the_gm(table, llm):
    """A silent answer is no longer valid once the rules did something."""
    roll = completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])
    llm.script = [(200, roll), (200, refusal("No.")), (200, completion(content=TOLD))]
    output = _narrate(table, llm, "The goblin rolls a d20.")
    assert (output.messages, output.tool_calls) == ((AgentMessage("Nothing to apply.", "gm"),), 1)
    assert llm.requests[2]["messages"][-1]["content"] == (
        'Your answer was invalid: the answer is a refusal ("No."); if the rules cannot apply '
        "what the GM's narration says, say so in a message to the 'gm' audience. Reply with "
        "only the JSON object described in the instructions."
    )


def test_a_narration_answered_wider_than_it_was_told_is_named_the_gms_narration(table, llm):
    wide = json.dumps({"messages": [{"text": "The door falls.", "audience": "public"}]})
    llm.script = [(200, completion(content=wide)), (200, completion(content=TOLD))]
    output = _narrate(table, llm, "The ogre tears the door from its hinges.", trigger="gm")
    assert output.messages == (AgentMessage("Nothing to apply.", "gm"),)
    assert llm.requests[1]["messages"][-1]["content"] == (
        "Your answer was invalid: messages[0].audience 'public' is wider than the GM's "
        "narration ('gm'); use 'trigger' or 'gm'. Reply with only the JSON object described "
        "in the instructions."
    )
