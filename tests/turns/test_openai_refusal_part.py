"""The openai provider and a refusal sent as a content part (`{"type": "refusal", ...}`), as
OpenAI's parts have it: told to the model as the refusal it is, as a `refusal` field is."""

from __future__ import annotations

import pytest

from apps.turns.errors import classify_error
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def refused_in_parts(*texts: str) -> dict:
    body = completion(content=None)
    body["choices"][0]["message"]["content"] = [
        {"type": "refusal", "refusal": text} for text in texts
    ]
    return body


def test_a_refusal_part_is_sent_back_as_a_refusal(table, llm):
    llm.script = [
        (200, refused_in_parts("I can't help ", "with that.")),
        (200, completion(content=FINAL)),
    ]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-2:] == [
        {"role": "assistant", "content": "I can't help with that."},
        {
            "role": "user",
            "content": "Your answer was invalid: the answer is a refusal (\"I can't help with "
            "that.\"); if the player's request cannot be done, say so in the messages. Reply "
            "with only the JSON object described in the instructions.",
        },
    ]


def test_a_second_refusal_part_fails_saying_the_model_refused(table, llm):
    llm.script = [(200, refused_in_parts("No.")), (200, refused_in_parts("Still no."))]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    assert classify_error(caught.value).code == "agent_output_invalid"
    assert caught.value.details == {
        "reason": 'the answer is a refusal ("Still no."); if the player\'s request cannot be '
        "done, say so in the messages"
    }


def test_a_blank_refusal_part_is_an_answer_without_text(table, llm):
    llm.script = [(200, refused_in_parts("  ")), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-1]["content"] == (
        "Your answer was invalid: the final answer has no text content. Reply with only the JSON "
        "object described in the instructions."
    )
