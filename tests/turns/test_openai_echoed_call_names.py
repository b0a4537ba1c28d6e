"""The names a model's tool calls are echoed with in the next request (a real local fake
chat-completions server and a live dnd5e server). OpenAI refuses a whole request (HTTP 400,
which failed the turn as the operators' error) holding a function name of another character
than letters, digits, "_" and "-", or none, or one past 64 characters; a model may invent any
name. The tool answer to such a call quotes the name the model wrote."""

from __future__ import annotations

import json
import re

import pytest

from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db

VALID = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def test_calls_within_the_limit_are_echoed_with_names_openai_accepts(table, llm):
    calls = [
        tool_call("c1", "dice_roll", {"expression": "1d4"}),
        tool_call("c2", "roll the dice!", {}),
        tool_call("c3", "n" * 100, {}),
        tool_call("c4", "", {}),
        {"id": "c5", "function": {"name": ["not", "text"], "arguments": "{}"}},
        {"id": "c6", "function": "dice_roll"},
        {"id": "c7"},
    ]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    _output, caller = run(table, llm)
    assert [o.ok for o in caller.outcomes] == [True, False, False, False]
    echoed = llm.requests[1]["messages"][2]["tool_calls"]
    assert [call["function"] for call in echoed] == [
        {"name": "dice_roll", "arguments": '{"expression": "1d4"}'},
        {"name": "invalid_tool_name", "arguments": "{}"},
        {"name": "n" * 64, "arguments": "{}"},
        {"name": "invalid_tool_name", "arguments": "{}"},
        {"name": "invalid_tool_name", "arguments": "{}"},
        {"name": "invalid_tool_name", "arguments": "{}"},
        {"name": "invalid_tool_name", "arguments": "{}"},
    ]
    assert all(VALID.fullmatch(call["function"]["name"]) for call in echoed)
    replies = [m for m in llm.requests[1]["messages"] if m["role"] == "tool"]
    assert [r["tool_call_id"] for r in replies] == [f"c{i}" for i in range(1, 8)]
    # The model is told which name it got wrong.
    assert json.loads(replies[1]["content"])["error"]["message"].startswith(
        "roll the dice! is not offered in this turn"
    )


def test_calls_past_the_limit_are_echoed_with_names_openai_accepts(table, llm):
    calls = [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(8)]
    calls.append(tool_call("c8", "dice.roll", {}))
    calls.append(tool_call("c9", "", {}))
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    run(table, llm)
    echoed = llm.requests[1]["messages"][2]["tool_calls"]
    assert [call["function"] for call in echoed[8:]] == [
        {"name": "invalid_tool_name", "arguments": "{}"},
        {"name": "invalid_tool_name", "arguments": "{}"},
    ]
