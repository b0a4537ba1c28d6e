"""What the conversation echoes back of an answer that JSON cannot send (a real local fake
chat-completions server and a live dnd5e server): Python reads NaN and Infinity from an
answer, a request may not carry them, so a server's NaN in a field of a tool call failed the
turn as a bug after the call had run."""

from __future__ import annotations

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db
CALL = tool_call("c1", "dice_roll", {"expression": "1d20"})


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf")])
def test_a_number_json_cannot_send_is_echoed_as_null(table, llm, number):
    odd = {**CALL, "index": number, "function": {**CALL["function"], "weight": [1.5, number]}}
    llm.script = [(200, completion(tool_calls=[odd])), (200, completion(content=FINAL))]
    output, caller = run(table, llm)
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 1)
    assert len(caller.outcomes) == 1
    assert llm.requests[1]["messages"][2] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {**CALL, "type": "function", "index": None,
             "function": {**CALL["function"], "weight": [1.5, None]}},
        ],
    }  # fmt: skip
