"""A wait in an error body of more digits than decimal arithmetic holds in its exponent (a real
local fake chat-completions server and a live dnd5e server): capped as any wait of decades is,
instead of failing the turn on a decimal overflow the player is told to report."""

from __future__ import annotations

import pytest

from apps.turns.errors import AgentUnavailable
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("unit", ["h", "s"])
def test_a_wait_of_a_million_digits_is_capped(table, llm, unit):
    message = f"Rate limit reached. Please try again in {'9' * 1_000_000}{unit}."
    llm.script = [(429, {"error": {"message": message, "code": "rate_limit_exceeded"}})]
    with pytest.raises(AgentUnavailable) as caught:
        run(table, llm)
    assert (caught.value.code, caught.value.retryable, caught.value.details) == (
        "agent_unavailable", True, {"status": 429, "retry_after": 10**9}
    )  # fmt: skip
