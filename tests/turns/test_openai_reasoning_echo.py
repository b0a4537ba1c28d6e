"""A reasoning model's thinking echoed back with its tool calls (a real local fake
chat-completions server and a live dnd5e server): DeepSeek's thinking mode refuses the next
request with HTTP 400 when an assistant message of the tool-call loop lacks the
`reasoning_content` its answer carried, which failed the turn after its first call had run."""

from __future__ import annotations

import pytest

from apps.turns.agents.openai import MAX_ECHOED_ANSWER_CHARS, MAX_ECHOED_REASONING_CHARS
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db
CALL = tool_call("c1", "dice_roll", {"expression": "1d20"})


def test_the_thinking_of_an_answer_with_tool_calls_is_echoed_with_them(table, llm):
    answer = completion(tool_calls=[CALL])
    answer["choices"][0]["message"]["reasoning_content"] = "The player rolls: call dice_roll."
    llm.script = [(200, answer), (200, completion(content=FINAL))]
    run(table, llm)
    assert llm.requests[1]["messages"][2] == {
        "role": "assistant",
        "content": None,
        "reasoning_content": "The player rolls: call dice_roll.",
        "tool_calls": [{**CALL, "type": "function"}],
    }


@pytest.mark.parametrize("reasoning", [None, {"text": "not text"}], ids=["absent", "no-text"])
def test_an_answer_without_thinking_text_is_echoed_without_it(table, llm, reasoning):
    answer = completion(tool_calls=[CALL])
    if reasoning is not None:
        answer["choices"][0]["message"]["reasoning_content"] = reasoning
    llm.script = [(200, answer), (200, completion(content=FINAL))]
    run(table, llm)
    assert llm.requests[1]["messages"][2] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [{**CALL, "type": "function"}],
    }


def test_long_thinking_is_echoed_cut_as_the_models_words_are(table, llm):
    """A model that thinks at length (a raised token bound) would send its whole thinking back
    in every later request of the turn."""
    thinking = "The player rolls. " * 20_000
    answer = completion(tool_calls=[CALL])
    answer["choices"][0]["message"]["reasoning_content"] = thinking
    llm.script = [(200, answer), (200, completion(content=FINAL))]
    run(table, llm)
    assert llm.requests[1]["messages"][2]["reasoning_content"] == (
        thinking[:MAX_ECHOED_ANSWER_CHARS] + f"\n[truncated: the thinking has {len(thinking)} "
        f"characters; only the first {MAX_ECHOED_ANSWER_CHARS} are shown]"
    )


DETAILS = [
    {"type": "reasoning.text", "text": "The player rolls.", "signature": "c2lnbmVk", "index": 0},
    {"type": "reasoning.encrypted", "data": "ZW5jcnlwdGVk", "index": 1},
]


def test_reasoning_details_go_back_whole_with_the_calls(table, llm):
    """OpenRouter gives a model's thinking as reasoning_details, signed or encrypted; Gemini 3
    and Claude's extended thinking behind it refuse the next request of a tool-call loop
    without it, and a cut copy would not check."""
    answer = completion(tool_calls=[CALL])
    answer["choices"][0]["message"]["reasoning_details"] = DETAILS
    llm.script = [(200, answer), (200, completion(content=FINAL))]
    run(table, llm)
    assert llm.requests[1]["messages"][2] == {
        "role": "assistant",
        "content": None,
        "reasoning_details": DETAILS,
        "tool_calls": [{**CALL, "type": "function"}],
    }


@pytest.mark.parametrize(
    "details",
    [
        [{"type": "reasoning.encrypted", "data": "x" * MAX_ECHOED_REASONING_CHARS}],
        {"type": "reasoning.text", "text": "not a list"},
    ],
    ids=["too-large", "no-list"],
)
def test_reasoning_details_too_large_or_no_list_are_left_out(table, llm, details):
    answer = completion(tool_calls=[CALL])
    answer["choices"][0]["message"]["reasoning_details"] = details
    llm.script = [(200, answer), (200, completion(content=FINAL))]
    run(table, llm)
    assert llm.requests[1]["messages"][2] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [{**CALL, "type": "function"}],
    }
