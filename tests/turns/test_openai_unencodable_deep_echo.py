"""An answer that JSON cannot send (a NaN in a field of a tool call) and that nests another
field deeply, as a malformed answer may (a real local fake chat-completions server and a live
dnd5e server): the echo still goes, the NaN as null and the nested field as sent, instead of
the turn failing as a bug after its call had run."""

from __future__ import annotations

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db
CALL = tool_call("c1", "dice_roll", {"expression": "1d20"})


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def test_a_deeply_nested_field_beside_a_nan_is_echoed_as_sent(table, llm):
    odd = {**CALL, "index": float("nan"), "function": {**CALL["function"], "deep": nested(480)}}
    llm.script = [(200, completion(tool_calls=[odd])), (200, completion(content=FINAL))]
    output, caller = run(table, llm)
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 1)
    assert len(caller.outcomes) == 1
    assert llm.requests[1]["messages"][2] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {**CALL, "type": "function", "index": None,
             "function": {**CALL["function"], "deep": nested(480)}},
        ],
    }  # fmt: skip
