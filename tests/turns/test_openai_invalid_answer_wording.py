"""What a player reads when the model's answer is still invalid after its correction round (a
real local fake chat-completions server and a live dnd5e server): what was wrong with the
agent's answer, not the advice the model was given ("say so in the messages", "call a tool"),
which the model alone can act on. The operators' details keep the reason as the model read it."""

from __future__ import annotations

import pytest

from apps.turns.errors import AgentOutputInvalid, classify_error
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import run
from tests.turns.test_openai_endpoint_answers import refusal
from tests.turns.test_openai_unread_tool_call import SLIP, unread_call

pytestmark = pytest.mark.django_db


def test_a_second_refusal_tells_the_player_the_agent_refused(table, llm):
    llm.script = [(200, refusal("No.")), (200, refusal("Still no."))]
    with pytest.raises(AgentOutputInvalid) as caught:
        run(table, llm)
    assert classify_error(caught.value).message == (
        'The agent\'s answer was invalid: the answer is a refusal ("Still no.")'
    )
    assert caught.value.details == {
        "reason": 'the answer is a refusal ("Still no."); if the player\'s request cannot be '
        "done, say so in the messages"
    }


def test_a_second_unread_call_tells_the_player_whose_call_was_not_read(table, llm):
    llm.script = [unread_call(SLIP), unread_call(SLIP)]
    with pytest.raises(AgentOutputInvalid) as caught:
        run(table, llm)
    assert classify_error(caught.value).message == (
        "The agent's answer was invalid: the endpoint could not read the model's tool call"
    )
    assert caught.value.details == {
        "reason": "the endpoint could not read the model's tool call; call a tool with JSON "
        "arguments as its schema says, or give only the final JSON answer"
    }


def test_a_second_answer_cut_off_tells_the_player_it_was_cut_off(table, llm):
    cut = completion(content='{"messages": [{"text": "The goblin')
    cut["choices"][0]["finish_reason"] = "length"
    llm.script = [(200, cut), (200, cut)]
    with pytest.raises(AgentOutputInvalid) as caught:
        run(table, llm, max_tokens=300)
    assert classify_error(caught.value).message == (
        "The agent's answer was invalid: the answer was cut off at the limit of 300 tokens"
    )
    assert caught.value.details == {
        "reason": "the answer was cut off at the limit of 300 tokens; give a shorter one"
    }
