"""What an OK answer that holds no message is said to lack (a real local fake chat-completions
server and a live dnd5e server): the operators and the player read it, so it is named in words,
not as the Python error that found it ("list index out of range", "'choices'")."""

from __future__ import annotations

import pytest

from apps.turns.errors import classify_error
from tests.turns.test_openai_agent import run
from tests.turns.test_openai_prompt_filtered import filtered_prompt

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (filtered_prompt(False), "it holds no choices"),
        ({"object": "chat.completion"}, "it holds no choices"),
        ({"choices": [{"index": 0, "finish_reason": "stop"}]}, "its choice holds no message"),
    ],
    ids=["empty", "absent", "no-message"],
)
def test_an_ok_answer_with_no_message_says_what_it_lacks(table, llm, body, reason):
    llm.script = [(200, body)]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable, classified.message) == (
        "agent_protocol_error",
        False,
        f"The agent endpoint's answer is not a chat completion: {reason}",
    )
