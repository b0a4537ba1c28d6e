"""The words a model answers beside its tool calls, as the next request sends them back (a
real local fake chat-completions server and a live dnd5e server): cut as an invalid final
answer is, so a model that loops until its token bound before calling a tool does not carry
its whole loop into every later request of the turn."""

from __future__ import annotations

import pytest

from apps.turns.agents.openai import MAX_ECHOED_ANSWER_CHARS
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def test_long_words_beside_tool_calls_are_sent_back_cut_with_a_marker(table, llm):
    looping = "Let me roll. " * 20_000
    call = tool_call("c1", "dice_roll", {"expression": "1d4"})
    llm.script = [
        (200, completion(content=looping, tool_calls=[call])),
        (200, completion(content=FINAL)),
    ]
    _output, caller = run(table, llm)
    assert [o.ok for o in caller.outcomes] == [True]
    echoed = llm.requests[1]["messages"][2]
    assert echoed == {
        "role": "assistant",
        "content": looping[:MAX_ECHOED_ANSWER_CHARS]
        + f"\n[truncated: the answer has {len(looping)} characters; only the first "
        f"{MAX_ECHOED_ANSWER_CHARS} are shown]",
        "tool_calls": [{**call, "type": "function"}],
    }


def test_words_within_the_bound_beside_tool_calls_are_sent_back_whole(table, llm):
    said = "x" * MAX_ECHOED_ANSWER_CHARS
    call = tool_call("c1", "dice_roll", {"expression": "1d4"})
    llm.script = [
        (200, completion(content=said, tool_calls=[call])),
        (200, completion(content=FINAL)),
    ]
    run(table, llm)
    assert llm.requests[1]["messages"][2]["content"] == said
