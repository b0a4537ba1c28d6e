"""An HTTP 200 whose choice carries an error (OpenRouter's answer when the provider behind it
fails mid-generation: `finish_reason` "error", an `error` object, content empty or cut), against
a real local fake chat-completions server and a live dnd5e server: classed as that error is,
not corrected as an invalid answer the player is told to rephrase."""

from __future__ import annotations

import pytest

from apps.turns.errors import classify_error
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db
USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def failed_choice(error: dict, content: str = "") -> dict:
    body = completion(content=content)
    body["choices"][0].update(finish_reason="error", error=error)
    return body


@pytest.mark.parametrize(
    ("error", "content", "expected"),
    [
        ({"code": 502, "message": "Upstream error from provider"}, "",
         ("agent_unavailable", True)),
        ({"code": 429, "message": "Provider rate limited"}, '{"messages": [{"te',
         ("agent_unavailable", True)),
        ({"code": 400, "message": "Provider refused the request"}, "",
         ("agent_rejected", False)),
    ],
    ids=["upstream-failed", "rate-limited-mid-answer", "refused"],
)  # fmt: skip
def test_a_choice_carrying_an_error_is_classed_as_that_error(table, llm, error, content, expected):
    llm.script = [(200, failed_choice(error, content))]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    found = classify_error(caught.value)
    assert (found.code, found.retryable) == expected
    assert len(llm.requests) == 1
