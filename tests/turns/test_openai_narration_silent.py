"""A GM's narration that asks nothing of the rules may be answered with no message (a real local
fake chat-completions server and a live dnd5e server): the narration is already in the room, so
the model is not made to invent a reply. An action's answer still needs one."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage, AgentOutput
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, agent

pytestmark = pytest.mark.django_db

SILENT = '{"messages": []}'
USAGE = {"model_calls": 1, "prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _run(table, llm, task: str, text: str):
    turn = table.context(table.gm, text, job_id="j1", task=task)
    return agent(llm).run_turn(turn, table.caller(table.gm, turn))


def _correction(llm) -> str:
    return llm.requests[1]["messages"][-1]["content"]


def test_a_narration_needing_no_rules_is_answered_with_no_message(table, llm):
    llm.script = [(200, completion(content=SILENT))]
    output = _run(table, llm, "narration", "The wind howls through the broken gate.")
    # As the scripted agent leaves a narration no command takes: nothing said, nothing done.
    assert output == AgentOutput(messages=(), declined=True, help_only=True, usage=USAGE)
    assert len(llm.requests) == 1


def test_an_action_answered_with_no_message_is_sent_back_to_the_model(table, llm):
    llm.script = [(200, completion(content=SILENT)), (200, completion(content=FINAL))]
    output = _run(table, llm, "action", "roll a d20")
    assert [m.text for m in output.messages] == ["The die lands."]
    assert _correction(llm) == (
        "Your answer was invalid: messages must be a list of 1 to 4 objects. Reply with only "
        "the JSON object described in the instructions."
    )


def test_a_narration_answered_with_too_many_messages_is_told_its_bounds(table, llm):
    five = json.dumps({"messages": [{"text": "x", "audience": "gm"}] * 5})
    llm.script = [(200, completion(content=five)), (200, completion(content=SILENT))]
    output = _run(table, llm, "narration", "The wind howls through the broken gate.")
    assert output.messages == ()
    assert _correction(llm) == (
        "Your answer was invalid: messages must be a list of 0 to 4 objects. Reply with only "
        "the JSON object described in the instructions."
    )


def test_a_narration_that_called_tools_must_tell_the_gm_what_the_rules_did(table, llm):
    """A silent answer would leave the GM unaware of what the calls did, and the roll with no
    message to show it on."""
    told = json.dumps({"messages": [{"text": "Rolled 1d20.", "audience": "gm"}]})
    roll = completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])
    llm.script = [(200, roll), (200, completion(content=SILENT)), (200, completion(content=told))]
    output = _run(table, llm, "narration", "The goblin rolls a d20.")
    assert (output.messages, output.tool_calls, output.declined, output.help_only) == (
        (AgentMessage("Rolled 1d20.", "gm"),), 1, False, False
    )  # fmt: skip
    assert llm.requests[2]["messages"][-1]["content"] == (
        "Your answer was invalid: messages must hold at least one message after tool calls, "
        "telling the GM what the rules did. Reply with only the JSON object described in the "
        "instructions."
    )
