"""A final answer whose JSON object comes with words around it, as smaller models served by
Ollama, llama.cpp or vLLM often write it ("Here is my answer:", a fence, "Hope this helps!";
a real local fake chat-completions server and a live dnd5e server): the object is read, rather
than the answer sent back as no JSON, which such a model often repeats until the turn fails."""

from __future__ import annotations

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "content",
    [
        f"Here is my answer:\n```json\n{FINAL}\n```",
        f"```json\n{FINAL}\n```\nLet me know if the player wants anything else.",
        f"{FINAL}\n\nI hope this helps!",
        f"Sure! {FINAL}",
        f"<think>The die, {{14}}.</think>\nThe answer:\n```\n{FINAL}\n```",
    ],
    ids=[
        "words-then-fence",
        "fence-then-words",
        "object-then-words",
        "words-then-object",
        "thinking-words-fence",
    ],
)
def test_the_object_among_words_is_read(table, llm, content):
    llm.script = [(200, completion(content=content))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert output.suggestions == ("roll again",)
    assert len(llm.requests) == 1


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("The die lands on 14.", "the answer is not JSON (Expecting value)"),
        ('Sure! {"messages": [{"text": "The die"', "the answer is not JSON (Expecting value)"),
        ('Sure! ["The die lands."]', "the answer is not JSON (Expecting value)"),
    ],
    ids=["words", "cut-object", "no-object"],
)
def test_words_without_a_whole_object_are_corrected(table, llm, content, reason):
    llm.script = [(200, completion(content=content)), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert llm.requests[1]["messages"][-1]["content"] == (
        f"Your answer was invalid: {reason}. Reply with only the JSON object described in the "
        "instructions."
    )
