"""A model that spends its whole token bound before answering (a reasoning model thinking at
length; a real local fake chat-completions server and a live dnd5e server): asked for a
shorter answer it would only spend the bound again, and the player's action is not at fault.
The turn fails at once, telling the operators which setting to raise."""

from __future__ import annotations

import pytest

from apps.turns.errors import AgentTokenLimit, classify_error
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def spent(content):
    body = completion(content=content)
    body["choices"][0]["finish_reason"] = "length"
    body["usage"] = {
        "prompt_tokens": 900,
        "completion_tokens": 8192,
        "total_tokens": 9092,
        "completion_tokens_details": {"reasoning_tokens": 8192},
    }
    return body


@pytest.mark.parametrize(
    "content",
    [
        None,
        "",
        "\n\n",
        [{"type": "thinking", "thinking": "The player rolls..."}],
        "<think>The player rolls a d20, so first I should",
        # DeepSeek-R1's chat template opens the thinking in the prompt: served without a
        # reasoning parser, its content is the thinking alone, with no tag at all.
        "Okay, the player wants to roll a d20. {The tool} should",
        "<think>The player rolls a d20.</think>\n\n",
        "The player rolls a d20.\n</think>\n",
    ],
    ids=[
        "null",
        "empty",
        "blank",
        "thinking-part",
        "unclosed-thinking",
        "thinking-without-tags",
        "ended-thinking-then-nothing",
        "ended-thinking-without-opening-then-nothing",
    ],
)
def test_an_answer_with_the_bound_spent_thinking_fails_for_the_operators(table, llm, content):
    # A second answer stays unasked for: a correction round would only spend the bound again.
    llm.script = [(200, spent(content)), (200, spent(content))]
    with pytest.raises(AgentTokenLimit) as caught:
        run(table, llm)
    assert len(llm.requests) == 1
    assert caught.value.message == (
        "The agent's model spent its whole limit of 8192 tokens before answering."
    )
    assert caught.value.details == {"max_tokens": 8192}
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable, classified.recovery) == (
        "agent_token_limit",
        False,
        "An operator must raise SAGASMITH_OPENAI_MAX_TOKENS.",
    )


@pytest.mark.parametrize(
    "content",
    [
        '{"messages": [{"text": "The die',
        '```json\n{"messages": [{"text": "The die',
        '<think>The player rolls.</think>\n{"messages": [{"text": "The die',
        'The player rolls.\n</think>\n\n{"messages": [{"text": "The die',
    ],
    ids=["object", "fenced", "after-thinking", "after-thinking-without-opening"],
)
def test_an_answer_cut_after_it_began_is_corrected_as_too_long(table, llm, content):
    llm.script = [(200, spent(content)), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert llm.requests[1]["messages"][-1] == {
        "role": "user",
        "content": "Your answer was invalid: the answer was cut off at the limit of 8192 tokens; "
        "give a shorter one. Reply with only the JSON object described in the instructions.",
    }


def test_the_bound_named_is_the_one_configured(table, llm):
    llm.script = [(200, spent(None))]
    with pytest.raises(AgentTokenLimit) as caught:
        run(table, llm, max_tokens=300)
    assert caught.value.message == (
        "The agent's model spent its whole limit of 300 tokens before answering."
    )
