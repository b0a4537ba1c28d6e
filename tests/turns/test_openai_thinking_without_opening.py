"""A reasoning model whose chat template opens its thinking in the prompt (DeepSeek-R1 and its
distills, served without a reasoning parser by vLLM, SGLang or llama.cpp) writes only the end
of that thinking in its content: the answer after it is read (a real local fake
chat-completions server and a live dnd5e server), as one after a whole <think> block is."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def test_the_answer_after_thinking_without_its_opening_tag_is_read(table, llm):
    thought = "The player rolls; {the tool said 14}.\n</think>\n\n"
    llm.script = [(200, completion(content=thought + FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert len(llm.requests) == 1


def test_an_answer_whose_text_writes_the_closing_tag_keeps_it(table, llm):
    answer = json.dumps({"messages": [{"text": "The sage mutters </think> and falls silent."}]})
    llm.script = [(200, completion(content=answer))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The sage mutters </think> and falls silent."),)
