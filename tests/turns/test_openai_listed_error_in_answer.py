"""An HTTP 200 whose body is a list of one error object, as Google's OpenAI-compatible endpoint
answers a failure (a real local fake chat-completions server and a live dnd5e server): classed
as the same error object unwrapped is, retryable when its code says so, with the wait it asks
for and its message bounded in the operators' log."""

from __future__ import annotations

import logging

import pytest

from apps.turns.errors import AgentRejected, AgentUnavailable, classify_error
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db
LOGGER = "apps.turns.agents.openai"


def google(code: int, status: str, message: str, details: list | None = None) -> list:
    error = {"code": code, "message": message, "status": status}
    if details is not None:
        error["details"] = details
    return [{"error": error}]


@pytest.mark.parametrize(
    ("body", "details"),
    [
        (google(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota.",
                [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "12s"}]),
         {"status": 429, "retry_after": 12}),
        (google(503, "UNAVAILABLE", "The model is overloaded."), {"status": 503}),
    ],
    ids=["rate-limit", "overloaded"],
)  # fmt: skip
def test_an_ok_answer_listing_a_passing_error_is_retried_after_the_wait_it_asks_for(
    table, llm, caplog, body, details
):
    llm.script = [(200, body)]
    with (
        caplog.at_level(logging.WARNING, logger=LOGGER),
        pytest.raises(AgentUnavailable) as caught,
    ):
        run(table, llm)
    assert (caught.value.code, caught.value.retryable, caught.value.details) == (
        "agent_unavailable", True, details
    )  # fmt: skip
    assert [r.getMessage() for r in caplog.records] == [
        "The agent endpoint is unavailable: HTTP 200 with an error: " + body[0]["error"]["message"]
    ]


def test_an_ok_answer_listing_a_refusal_is_a_refusal_with_its_message_bounded(table, llm, caplog):
    llm.script = [(200, google(400, "INVALID_ARGUMENT", "x" * 5000))]
    with (
        caplog.at_level(logging.WARNING, logger=LOGGER),
        pytest.raises(AgentRejected) as caught,
    ):
        run(table, llm)
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable, classified.message) == (
        "agent_rejected", False, "The agent endpoint refused the request."
    )  # fmt: skip
    assert [r.getMessage() for r in caplog.records] == [
        "The agent endpoint refused the request: HTTP 200 with an error: " + "x" * 200
    ]


@pytest.mark.parametrize("body", [[], [1], [{"choices": []}], [{"error": "x"}, {"error": "y"}]])
def test_an_ok_answer_listing_no_single_error_is_not_a_completion(table, llm, body):
    llm.script = [(200, body)]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable, classified.message) == (
        "agent_protocol_error",
        False,
        "The agent endpoint's answer is not a chat completion: the answer is not an object",
    )
