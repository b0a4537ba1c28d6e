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
    assert limited == [
        {"code": "tool_limit",
         "message": "the limit of 8 tool calls is reached: this call and the 4991 after it "
                    "were not run; give your final JSON answer now"},
        *[{"code": "tool_limit", "message": "not run: tool limit reached"}] * 7,
    ]  # fmt: skip


def test_a_call_left_out_of_the_conversation_is_counted_in_the_first_answer(table, llm):
    calls = [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(17)]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    run(table, llm)
    replies = [m for m in llm.requests[1]["messages"] if m["role"] == "tool"]
    first, last = (json.loads(r["content"])["error"]["message"] for r in (replies[8], replies[-1]))
    assert (replies[-1]["tool_call_id"], first, last) == (
        "c15",
        "the limit of 8 tool calls is reached: this call and the 8 after it were not run; "
        "give your final JSON answer now",
        "not run: tool limit reached",
    )
