"""How much of an invalid final answer the correction round sends back (a real local fake
chat-completions server and a live dnd5e server). A model that loops until its token bound, or
a server that ignores the bound, answers far more than any valid answer holds; sent back whole
it doubled the request's cost and could overflow the model's context, failing the turn as a
refused request instead of correcting it."""

from __future__ import annotations

import json

import pytest

from apps.turns.agents.openai import MAX_ECHOED_ANSWER_CHARS
from apps.turns.types import MAX_MESSAGE_CHARS, MAX_MESSAGES, AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def test_the_bound_leaves_room_for_the_largest_valid_answer():
    assert MAX_ECHOED_ANSWER_CHARS == 2 * MAX_MESSAGES * MAX_MESSAGE_CHARS


def test_a_long_invalid_answer_is_sent_back_cut_with_a_marker(table, llm):
    looping = "The goblin laughs. " * 20_000
    llm.script = [(200, completion(content=looping)), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    echoed, correction = llm.requests[1]["messages"][-2:]
    assert echoed == {
        "role": "assistant",
        "content": looping[:MAX_ECHOED_ANSWER_CHARS]
        + f"\n[truncated: the answer has {len(looping)} characters; only the first "
        f"{MAX_ECHOED_ANSWER_CHARS} are shown]",
    }
    assert correction["content"].startswith("Your answer was invalid: the answer is not JSON")


def test_an_invalid_answer_within_the_bound_is_sent_back_whole(table, llm):
    long = json.dumps({"messages": [{"text": "x" * (MAX_MESSAGE_CHARS + 1)}]})
    llm.script = [(200, completion(content=long)), (200, completion(content=FINAL))]
    run(table, llm)
    assert llm.requests[1]["messages"][-2] == {"role": "assistant", "content": long}


@pytest.mark.parametrize(
    "content",
    [{"messages": [{"text": "The die lands."}]}, 42, True],
    ids=["object", "number", "bool"],
)
def test_an_answer_without_text_is_sent_back_as_no_text(table, llm, content):
    # A conversation holds text (or parts) as an assistant's content: a server that validates
    # it refused the echoed object or number, and the turn failed as a misconfigured endpoint.
    body = completion(content=None)
    body["choices"][0]["message"]["content"] = content
    llm.script = [(200, body), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert llm.requests[1]["messages"][-2:] == [
        {"role": "assistant", "content": ""},
        {
            "role": "user",
            "content": "Your answer was invalid: the final answer has no text content. Reply "
            "with only the JSON object described in the instructions.",
        },
    ]


def test_the_text_of_an_answer_in_parts_is_sent_back_without_its_other_parts(table, llm):
    body = completion(content=None)
    body["choices"][0]["message"]["content"] = [
        {"type": "thinking", "thinking": "a long chain of thought"},
        {"type": "text", "text": "The goblin laughs."},
    ]
    llm.script = [(200, body), (200, completion(content=FINAL))]
    run(table, llm)
    assert llm.requests[1]["messages"][-2] == {"role": "assistant", "content": "The goblin laughs."}


@pytest.mark.parametrize("content", [{"note": "rolling"}, 7])
def test_calls_are_sent_back_without_content_that_is_no_text(table, llm, content):
    body = completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d4"})])
    body["choices"][0]["message"]["content"] = content
    llm.script = [(200, body), (200, completion(content=FINAL))]
    run(table, llm)
    echoed = llm.requests[1]["messages"][-2]
    assert (echoed["role"], echoed["content"]) == ("assistant", None)
