"""Tool arguments nested deeper than a tool call can be sent with (a real local fake
chat-completions server and a live dnd5e server): the MCP client's serializer stops at a few
hundred levels, which failed the turn as a bug; the call is refused to the model instead, as
arguments holding what no tool may be given are."""

from __future__ import annotations

import json

import pytest

from apps.turns.agents.openai import MAX_ARGUMENT_DEPTH
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_arguments_nested_deeper_than_can_be_sent_are_refused_to_the_model(table, llm):
    before = table.revision()
    # The arguments object is one level, the list in it 300 more.
    arguments = {"expression": "1d4", "label": nested(300)}
    llm.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", arguments)])),
        (200, completion(content=FINAL)),
    ]
    output, caller = run(table, llm)
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 1)
    # Neither sent nor journaled.
    assert (caller.outcomes, table.revision()) == ([], before)
    echo, answer = llm.requests[1]["messages"][-2:]
    assert echo["tool_calls"][0]["function"]["arguments"] == "{}"
    assert json.loads(answer["content"]) == {
        "error": {
            "code": "invalid_arguments",
            "message": "the arguments hold lists or objects nested deeper than "
            f"{MAX_ARGUMENT_DEPTH} levels",
        }
    }


def test_arguments_at_the_depth_bound_are_sent_for_the_rules_to_judge(table, llm):
    # The arguments object and MAX_ARGUMENT_DEPTH - 1 levels of lists: the domain server's own
    # bound refuses them, as the model's mistake.
    arguments = {"expression": "1d4", "label": nested(MAX_ARGUMENT_DEPTH - 1)}
    llm.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", arguments)])),
        (200, completion(content=FINAL)),
    ]
    _output, caller = run(table, llm)
    assert [(o.ok, o.for_model()["error"]["code"]) for o in caller.outcomes] == [
        (False, "invalid_request")
    ]
