"""The openai provider's requests when the conversation echoes text that has no UTF-8 encoding:
half of a surrogate pair, which a model can spell in JSON (`\\ud800`)."""

from __future__ import annotations

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def test_an_invalid_answer_with_half_a_surrogate_pair_is_echoed_replaced(table, llm):
    llm.script = [(200, completion(content="not json \ud800")), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert llm.requests[1]["messages"][-2] == {"role": "assistant", "content": "not json \ufffd"}


def test_words_beside_a_call_with_half_a_surrogate_pair_are_echoed_replaced(table, llm):
    call = tool_call("c1", "dice_roll", {"expression": "1d4"})
    llm.script = [
        (200, completion(content="Rolling \udc00", tool_calls=[call])),
        (200, completion(content=FINAL)),
    ]
    output, caller = run(table, llm)
    assert (output.tool_calls, len(caller.outcomes)) == (1, 1)
    echoed = llm.requests[1]["messages"][2]
    assert echoed["content"] == "Rolling \ufffd"
