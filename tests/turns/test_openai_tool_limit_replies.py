"""The answers to the calls of one model answer past the tool-call limit (a real local fake
chat-completions server and a live dnd5e server). Chat completions wants a tool message for
every call the conversation echoes, so each echoed call past the limit gets one: the first
tells the model why and how many calls were not run, the others only that they were not."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db
NOT_RUN = {"code": "tool_limit", "message": "not run: tool limit reached"}


def rolls(n: int, first: int = 0) -> list[dict]:
    return [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(first, first + n)]


def limit_errors(request: dict) -> list[dict]:
    """The errors of the request's tool answers that are tool_limit errors, in order."""
    errors = [json.loads(m["content"]).get("error") for m in request["messages"]
              if m["role"] == "tool"]  # fmt: skip
    return [e for e in errors if e and e["code"] == "tool_limit"]


def test_the_first_call_past_the_limit_tells_the_model_once_and_the_rest_tersely(table, llm):
    llm.script = [(200, completion(tool_calls=rolls(5000))), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 8)
    assert limit_errors(llm.requests[1]) == [
        {"code": "tool_limit",
         "message": "the limit of 8 tool calls is reached: this call and the 4991 after it "
                    "were not run; give your final JSON answer now"},
        *[NOT_RUN] * 7,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("asked", "told"),
    [
        (9, "this call was not run"),
        (10, "this call and the 1 after it were not run"),
    ],
)
def test_a_few_calls_past_the_limit_are_counted_in_the_first_answer(table, llm, asked, told):
    llm.script = [(200, completion(tool_calls=rolls(asked))), (200, completion(content=FINAL))]
    run(table, llm)
    assert limit_errors(llm.requests[1]) == [
        {"code": "tool_limit",
         "message": f"the limit of 8 tool calls is reached: {told}; give your final JSON "
                    "answer now"},
        *[NOT_RUN] * (asked - 9),
    ]  # fmt: skip


def test_calls_past_what_the_turn_has_left_are_counted_from_the_first_not_run(table, llm):
    before = table.revision()
    llm.script = [
        (200, completion(tool_calls=rolls(5))),
        (200, completion(tool_calls=rolls(6, first=5))),
        (200, completion(content=FINAL)),
    ]
    _output, caller = run(table, llm)
    assert (len(caller.outcomes), table.revision()) == (8, before + 8)
    replies = [m for m in llm.requests[2]["messages"] if m["role"] == "tool"]
    assert [r["tool_call_id"] for r in replies] == [f"c{i}" for i in range(11)]
    assert [json.loads(r["content"]).get("error") for r in replies[8:]] == [
        {"code": "tool_limit",
         "message": "the limit of 8 tool calls is reached: this call and the 2 after it were "
                    "not run; give your final JSON answer now"},
        NOT_RUN,
        NOT_RUN,
    ]  # fmt: skip
