"""The openai provider and a blank refusal sent as a content part (`{"type": "refusal", ...}`);
refusal parts with words are tested beside the `refusal` field in test_openai_endpoint_answers."""

from __future__ import annotations

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run
from tests.turns.test_openai_endpoint_answers import refused_in_parts

pytestmark = pytest.mark.django_db


def test_a_blank_refusal_part_is_an_answer_without_text(table, llm):
    llm.script = [(200, refused_in_parts("  ")), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-1]["content"] == (
        "Your answer was invalid: the final answer has no text content. Reply with only the JSON "
        "object described in the instructions."
    )
