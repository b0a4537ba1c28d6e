"""A wait in an error body whose unit is written with a letter that matches one only when case
is ignored (U+017F LONG S is "s" to a case-insensitive match) against a real local fake
chat-completions server and a live dnd5e server: the endpoint is still classed as passing,
with the wait read in that unit, never a crash the player is told to report to the operators."""

from __future__ import annotations

import pytest

from apps.turns.errors import AgentUnavailable
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db


def test_a_wait_in_long_s_seconds_is_read_as_seconds(table, llm):
    message = "Rate limit reached for m-1. Please try again in 2\u017f. Visit the limits page."
    llm.script = [(429, {"error": {"message": message, "code": "rate_limit_exceeded"}})]
    with pytest.raises(AgentUnavailable) as caught:
        run(table, llm)
    assert (caught.value.code, caught.value.retryable, caught.value.details) == (
        "agent_unavailable", True, {"status": 429, "retry_after": 2}
    )  # fmt: skip
