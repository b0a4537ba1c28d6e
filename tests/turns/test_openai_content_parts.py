"""The openai provider and an answer whose content is a list of parts rather than one text, as
some compatible servers send it (Mistral's reasoning models: a thinking part, then the text)."""

from __future__ import annotations

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def parts(*items) -> dict:
    body = completion(content=None)
    body["choices"][0]["message"]["content"] = list(items)
    return body


def test_an_answer_in_text_parts_is_read_as_their_text(table, llm):
    thinking = {"type": "thinking", "thinking": [{"type": "text", "text": "{not the answer"}]}
    half = len(FINAL) // 2
    llm.script = [
        (
            200,
            parts(
                thinking,
                {"type": "text", "text": FINAL[:half]},
                {"type": "text", "text": FINAL[half:]},
            ),
        )
    ]
    output, _caller = run(table, llm)
    assert (output.messages, output.suggestions) == (
        (AgentMessage("The die lands."),),
        ("roll again",),
    )
    assert len(llm.requests) == 1


def test_an_answer_in_parts_without_text_is_corrected_as_holding_none(table, llm):
    llm.script = [
        (200, parts({"type": "thinking", "thinking": "hmm"}, "stray", {"type": "text", "text": 5})),
        (200, completion(content=FINAL)),
    ]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-1]["content"] == (
        "Your answer was invalid: the final answer has no text content. Reply with only the JSON "
        "object described in the instructions."
    )
