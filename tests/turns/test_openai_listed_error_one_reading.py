"""A list-wrapped error body (Google's OpenAI-compatible endpoint answers a failure with a list
of one error object) is read by one rule whether it comes under an error status or under HTTP
200 (a real local fake chat-completions server and a live dnd5e server): the same error object
gets the same classification either way."""

from __future__ import annotations

import pytest

from apps.turns.errors import classify_error
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db
RETRY_INFO = {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "12s"}


def classified(table, llm, status, body):
    llm.script = [(status, body)]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    found = classify_error(caught.value)
    return found.code, found.retryable, found.retry_after


@pytest.mark.parametrize(
    ("status", "error", "expected"),
    [
        (429, {"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "Slow down.",
               "details": [RETRY_INFO]}, ("agent_unavailable", True, 12)),
        (429, {"code": "insufficient_quota", "status": 429,
               "message": "You exceeded your current quota."}, ("agent_rejected", False, None)),
        (400, {"code": "content_filter", "status": 400, "message": "Filtered."},
         ("agent_content_filtered", False, None)),
    ],
    ids=["rate-limit", "out-of-quota", "content-filter"],
)  # fmt: skip
def test_a_listed_error_is_classed_alike_under_its_status_and_under_200(
    table, llm, status, error, expected
):
    body = [{"error": error}]
    assert classified(table, llm, status, body) == expected
    assert classified(table, llm, 200, body) == expected


def test_a_list_of_more_than_one_error_names_no_wait(table, llm):
    # Under HTTP 200 such a list is no error object at all; under 429 its first item's wait
    # was taken all the same.
    body = [
        {"error": {"code": 429, "message": "Slow down.", "details": [RETRY_INFO]}},
        {"error": {"code": 500, "message": "Something else."}},
    ]
    assert classified(table, llm, 429, body) == ("agent_unavailable", True, None)
