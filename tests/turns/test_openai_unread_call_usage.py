"""An endpoint that refuses an answer whose tool call it could not read (Groq's HTTP 400
`tool_use_failed`) refuses what its model generated: the model ran all the same (a real local
fake chat-completions server and a live dnd5e server). The request counts as a model call, as
one whose endpoint reports no tokens does, so a turn answered from the refused words is not
free, and the count is reported as it accrues."""

from __future__ import annotations

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL
from tests.turns.test_openai_endpoint_answers import run
from tests.turns.test_openai_unread_tool_call import SLIP, unread_call

pytestmark = pytest.mark.django_db
USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def test_a_final_answer_the_endpoint_took_for_a_call_counts_its_model_call(table, llm):
    recorded: list[dict] = []
    llm.script = [unread_call(FINAL)]
    output, _caller = run(table, llm, recorded=recorded)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert output.usage == {"model_calls": 1}
    assert recorded == [{"model_calls": 1}]


def test_a_corrected_unread_call_counts_both_model_calls(table, llm):
    recorded: list[dict] = []
    llm.script = [unread_call(SLIP), (200, completion(content=FINAL))]
    output, _caller = run(table, llm, recorded=recorded)
    assert output.usage == {"model_calls": 2, **USAGE}
    assert recorded == [{"model_calls": 1}, {"model_calls": 2, **USAGE}]
