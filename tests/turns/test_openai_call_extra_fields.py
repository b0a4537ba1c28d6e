"""The fields of a model's tool call beyond the specification's (a real local fake
chat-completions server and a live dnd5e server): they go back with the call, as some servers
need theirs (Gemini's extra_content holds a thought signature its next request checks), but no
larger than the model's words beside the call go back, so one huge field does not ride along
in every later request of the turn."""

from __future__ import annotations

import json

import pytest

from apps.turns.agents.openai import MAX_ECHOED_ANSWER_CHARS
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db
CALL = tool_call("c1", "dice_roll", {"expression": "1d20"})


def cut(text, kept):
    return (
        text[:kept] + f"\n[truncated: the field has {len(text)} characters; only the first "
        f"{kept} are shown]"
    )


def echoed_call(table, llm, call):
    llm.script = [(200, completion(tool_calls=[call])), (200, completion(content=FINAL))]
    _output, caller = run(table, llm)
    assert [outcome.ok for outcome in caller.outcomes] == [True]
    return llm.requests[1]["messages"][2]["tool_calls"][0]


def test_small_extra_fields_go_back_as_sent(table, llm):
    call = {
        **CALL,
        "extra_content": {"google": {"thought_signature": "c2lnbmF0dXJl"}},
        "function": {**CALL["function"], "x_index": 0},
    }
    assert echoed_call(table, llm, call) == call


def test_a_huge_extra_text_goes_back_cut(table, llm):
    call = {
        **CALL,
        "x_trace": "y" * 400_000,
        "function": {**CALL["function"], "x_note": "z" * 400_000},
    }
    echoed = echoed_call(table, llm, call)
    assert echoed == {
        **CALL,
        "x_trace": cut("y" * 400_000, MAX_ECHOED_ANSWER_CHARS - len("x_trace")),
        "function": {
            **CALL["function"],
            "x_note": cut("z" * 400_000, MAX_ECHOED_ANSWER_CHARS - len("x_note")),
        },
    }
    assert len(json.dumps(llm.requests[1])) < 100_000


def test_an_extra_object_too_large_to_go_back_is_left_out(table, llm):
    call = {**CALL, "extra_content": {"note": "y" * 100_000}, "x_small": {"ok": True}}
    echoed = echoed_call(table, llm, call)
    assert echoed == {**CALL, "x_small": {"ok": True}}


def test_extra_fields_past_the_room_are_left_out(table, llm):
    halves = {f"x_{index}": "y" * (MAX_ECHOED_ANSWER_CHARS // 2) for index in range(4)}
    echoed = echoed_call(table, llm, {**CALL, **halves})
    room = MAX_ECHOED_ANSWER_CHARS // 2 - len("x_0")  # the first took half and its key
    assert echoed == {
        **CALL,
        "x_0": "y" * (MAX_ECHOED_ANSWER_CHARS // 2),
        "x_1": cut("y" * (MAX_ECHOED_ANSWER_CHARS // 2), room - len("x_1")),
    }
