"""The echo of a model answer's calls past the tool-call limit (a real local fake
chat-completions server and a live dnd5e server): they are refused, so the conversation keeps
their ids (each tool answer must name one) and names, never their arguments, which may be as
large as the model made them."""

from __future__ import annotations

import json

import pytest

from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def test_calls_past_the_limit_are_echoed_without_their_arguments(table, llm):
    calls = [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(8)]
    calls += [
        {**tool_call(f"c{i}", "dice_roll", {"expression": "1d4", "label": "x" * 100_000}),
         "extra_content": {"note": "y" * 100_000}}
        for i in range(8, 10)
    ]  # fmt: skip
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    _output, caller = run(table, llm)
    assert len(caller.outcomes) == 8
    echoed = llm.requests[1]["messages"][2]["tool_calls"]
    assert echoed[:8] == [{**call, "type": "function"} for call in calls[:8]]
    assert echoed[8:] == [
        {"id": "c8", "type": "function", "function": {"name": "dice_roll", "arguments": "{}"}},
        {"id": "c9", "type": "function", "function": {"name": "dice_roll", "arguments": "{}"}},
    ]
    replies = [m for m in llm.requests[1]["messages"] if m["role"] == "tool"]
    assert [r["tool_call_id"] for r in replies] == [f"c{i}" for i in range(10)]
    assert len(json.dumps(llm.requests[1])) < 50_000


def test_a_long_name_past_the_limit_is_echoed_cut(table, llm):
    calls = [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(8)]
    calls.append(tool_call("c8", "n" * 100_000, {}))
    calls.append({"id": "c9", "function": {"name": ["not", "text"], "arguments": "{}"}})
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    run(table, llm)
    echoed = llm.requests[1]["messages"][2]["tool_calls"]
    assert [call["function"] for call in echoed[8:]] == [
        {"name": "n" * 64, "arguments": "{}"},
        {"name": "invalid_tool_name", "arguments": "{}"},
    ]
