"""An answer fenced as a Markdown code block labelled in capitals ("```JSON", as some models
write it) is read as one labelled "```json" is (a real local fake chat-completions server and a
live dnd5e server), not sent back as no JSON."""

from __future__ import annotations

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("label", ["JSON", "Json"])
def test_an_answer_fenced_with_a_capital_label_is_read(table, llm, label):
    llm.script = [(200, completion(content=f"```{label}\n{FINAL}\n```"))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert len(llm.requests) == 1
