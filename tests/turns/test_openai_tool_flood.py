"""A model answer asking for far more tool calls than a turn may make (a real local fake
chat-completions server and a live dnd5e server): the calls past the limit are answered
compactly, so no later request of the turn grows with their number."""

from __future__ import annotations

import json

import pytest

from apps.turns.agents.openai import MAX_TOOL_CALLS
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def test_thousands_of_calls_in_one_answer_are_answered_without_a_request_as_large(table, llm):
    before = table.revision()
    calls = [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(5000)]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    output, caller = run(table, llm)
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 8)
    assert (len(caller.outcomes), table.revision()) == (8, before + 8)
    second = llm.requests[1]
    assert second["tool_choice"] == "none"
    echoed = [m for m in second["messages"] if m["role"] == "assistant"]
    assert [c["id"] for c in echoed[0]["tool_calls"]] == [f"c{i}" for i in range(16)]
    replies = [m for m in second["messages"] if m["role"] == "tool"]
    assert [r["tool_call_id"] for r in replies] == [f"c{i}" for i in range(16)]
    limited = [json.loads(r["content"])["error"] for r in replies[MAX_TOOL_CALLS:]]
    assert limited[:-1] == [
        {"code": "tool_limit",
         "message": "the limit of 8 tool calls is reached; give your final JSON answer now"}
    ] * 7  # fmt: skip
    assert limited[-1] == {
        "code": "tool_limit",
        "message": "the limit of 8 tool calls is reached; give your final JSON answer now "
        "(4984 more calls were not run either)",
    }


def test_a_single_call_left_out_is_told_as_one(table, llm):
    calls = [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(17)]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    run(table, llm)
    last = llm.requests[1]["messages"][-1]
    assert (last["tool_call_id"], json.loads(last["content"])["error"]["message"]) == (
        "c15",
        "the limit of 8 tool calls is reached; give your final JSON answer now "
        "(1 more call was not run either)",
    )
