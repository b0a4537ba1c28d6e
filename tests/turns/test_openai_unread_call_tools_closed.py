"""Groq refuses an answer calling a tool when the request set tool_choice "none" (HTTP 400
`tool_use_failed`, "Tool choice is none, but model called a tool"; a real local fake
chat-completions server and a live dnd5e server). Past the tool limit, or while an ended turn
is narrated, the correction tells the model that no tool may be called any more and why, not
to call a tool with JSON arguments; the next request offers no tools at all, as after a stray
call an endpoint let through, so the endpoint cannot refuse the same way again."""

from __future__ import annotations

import dataclasses
import json

import pytest

from apps.turns.agents.openai import MAX_TOOL_CALLS
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, agent, run
from tests.turns.test_openai_tool_limit import rolls

pytestmark = pytest.mark.django_db
CALL = json.dumps({"name": "dice_roll", "arguments": {"expression": "1d4"}})


def refused_call() -> tuple[int, dict]:
    return (
        400,
        {
            "error": {
                "message": "Tool choice is none, but model called a tool",
                "type": "invalid_request_error",
                "code": "tool_use_failed",
                "failed_generation": CALL,
            }
        },
    )


def test_a_call_refused_past_the_limit_is_told_the_limit_is_reached(table, llm):
    llm.script = [
        (200, completion(tool_calls=rolls(MAX_TOOL_CALLS))),
        refused_call(),
        (200, completion(content=FINAL)),
    ]
    output, _caller = run(table, llm)
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 8)
    assert llm.requests[1]["tool_choice"] == "none"
    assert llm.requests[2]["messages"][-1]["content"] == (
        "Your answer was invalid: no tool may be called any more (the limit of 8 tool calls is "
        "reached); give only the final JSON answer. Reply with only the JSON object described "
        "in the instructions."
    )


def test_a_call_refused_while_an_ended_turn_is_narrated_is_told_the_turn_is_over(table, llm):
    turn = dataclasses.replace(
        table.context(table.player, "roll a d20", job_id="j1"), narrate_only=True
    )
    llm.script = [refused_call(), (200, completion(content=FINAL))]
    output = agent(llm).run_turn(turn, table.caller(table.player, turn))
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 0)
    assert llm.requests[1]["messages"][-1]["content"] == (
        "Your answer was invalid: no tool may be called any more (the turn is over); give only "
        "the final JSON answer. Reply with only the JSON object described in the instructions."
    )


def test_a_call_refused_past_the_limit_is_asked_again_offering_no_tools(table, llm):
    llm.script = [
        (200, completion(tool_calls=rolls(MAX_TOOL_CALLS))),
        refused_call(),
        (200, completion(content=FINAL)),
    ]
    output, _caller = run(table, llm)
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 8)
    assert llm.requests[1]["tool_choice"] == "none"
    assert sorted(llm.requests[2]) == ["max_completion_tokens", "messages", "model", "stream"]


def test_a_call_refused_while_an_ended_turn_is_narrated_is_asked_again_offering_no_tools(
    table, llm
):
    turn = dataclasses.replace(
        table.context(table.player, "roll a d20", job_id="j1"), narrate_only=True
    )
    llm.script = [refused_call(), (200, completion(content=FINAL))]
    agent(llm).run_turn(turn, table.caller(table.player, turn))
    assert llm.requests[0]["tool_choice"] == "none"
    assert sorted(llm.requests[1]) == ["max_completion_tokens", "messages", "model", "stream"]
