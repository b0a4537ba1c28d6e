"""An error answer larger than the answer cap (a real local fake chat-completions server and a
live dnd5e server): a proxy's or a server's HTML error page can run past a megabyte, and its
status, not its size, says whether a new attempt may pass."""

from __future__ import annotations

import pytest

from apps.turns.agents.openai import MAX_ANSWER_BYTES
from apps.turns.errors import classify_error
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db
PAGE = "<html><body>" + "Service Unavailable. " * (2 * MAX_ANSWER_BYTES // 21) + "</body></html>"


def test_a_huge_outage_page_is_an_outage_to_retry(table, llm):
    llm.script = [(503, PAGE, {"Retry-After": "7"})]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable, caught.value.details) == (
        "agent_unavailable",
        True,
        {"status": 503, "retry_after": 7},
    )


def test_a_huge_refusal_page_is_a_refusal(table, llm):
    llm.script = [(403, PAGE)]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable, caught.value.details) == (
        "agent_rejected",
        False,
        {"status": 403},
    )
