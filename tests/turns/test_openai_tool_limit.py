"""The openai provider's tool-call limit against a real local fake chat-completions server and a
live dnd5e server: a server that ignores tool_choice "none", and calls the platform refuses."""

from __future__ import annotations

import json

import pytest

from apps.turns.agents.openai import MAX_TOOL_CALLS
from apps.turns.errors import AgentToolLimit
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def rolls(n: int, first: int = 0) -> list[dict]:
    return [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(first, first + n)]


def test_a_server_ignoring_tool_choice_none_is_asked_once_more_offering_no_tools(table, llm):
    before = table.revision()
    llm.script = [
        (200, completion(tool_calls=rolls(MAX_TOOL_CALLS))),
        (200, completion(tool_calls=rolls(1, first=8))),  # tool_choice "none" ignored
        (200, completion(content=FINAL)),
    ]
    output, caller = run(table, llm)
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 8)
    # The stray call was not run.
    assert (len(caller.outcomes), table.revision()) == (8, before + 8)
    closed, withdrawn = llm.requests[1:]
    assert closed["tool_choice"] == "none"
    assert ("tools" in withdrawn, "tool_choice" in withdrawn) == (False, False)
    # Its stray call is not in the conversation (no tool answers it), the reason is.
    assert withdrawn["messages"][:-1] == closed["messages"]
    assert withdrawn["messages"][-1] == {
        "role": "user",
        "content": "The limit of 8 tool calls is reached and no tools are offered any more. "
        "Reply with only the JSON object described in the instructions.",
    }


def test_a_server_calling_tools_it_was_not_offered_fails_the_turn_at_the_tool_limit(table, llm):
    llm.script = [
        (200, completion(tool_calls=rolls(MAX_TOOL_CALLS))),
        (200, completion(tool_calls=rolls(1, first=8))),
        (200, completion(tool_calls=rolls(1, first=9))),
    ]
    with pytest.raises(AgentToolLimit) as caught:
        run(table, llm)
    assert caught.value.message == "The model asked for tools after the limit of 8 calls."
    assert len(llm.requests) == 3


def test_a_server_refusing_a_request_without_tools_fails_the_turn_at_the_tool_limit(table, llm):
    """Some servers refuse a conversation holding tool calls when no tools are offered: the
    turn ends as the tool limit ended it, not as a misconfigured endpoint."""
    llm.script = [
        (200, completion(tool_calls=rolls(MAX_TOOL_CALLS))),
        (200, completion(tool_calls=rolls(1, first=8))),
        (400, {"error": {"message": "tools are required"}}),
    ]
    with pytest.raises(AgentToolLimit) as caught:
        run(table, llm)
    assert caught.value.code == "agent_tool_limit"
    assert len(llm.requests) == 3


def test_calls_the_platform_refuses_count_toward_the_limit(table, llm):
    """A model looping on calls refused before they reach a domain (a tool not offered,
    arguments that are no JSON object) is bounded like any other: each costs a model request,
    so the limit bounds the turn's tokens and time whatever the calls were."""
    before = table.revision()
    refused = [tool_call("r0", "combat_end", {}), tool_call("r1", "dice_roll", "{not json")]
    llm.script = [(200, completion(tool_calls=refused)) for _ in range(MAX_TOOL_CALLS // 2)]
    llm.script.append((200, completion(content=FINAL)))
    output, _caller = run(table, llm)
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 8)
    assert table.revision() == before
    assert [r["tool_choice"] for r in llm.requests] == ["auto"] * 4 + ["none"]
    answers = [json.loads(m["content"])["error"]["code"] for m in llm.requests[-1]["messages"]
               if m["role"] == "tool"]  # fmt: skip
    assert answers == ["tool_not_offered", "invalid_arguments"] * 4
