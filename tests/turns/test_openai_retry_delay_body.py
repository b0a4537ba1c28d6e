"""A rate limit or an overloaded endpoint that tells its wait in the error body, not in a
Retry-After header (a real local fake chat-completions server and a live dnd5e server):
Google's `error.details[].retryDelay` and OpenAI's "Please try again in 1.5s" are read when no
header asks for a wait, in whole seconds rounded up, capped as a header's wait is."""

from __future__ import annotations

import pytest

from apps.turns.errors import AgentUnavailable, classify_error
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db


def google(delay: str) -> dict:
    """Google's error (its OpenAI-compatible endpoint sends it in a list of one)."""
    return {
        "error": {
            "code": 429,
            "message": "You exceeded your current quota.",
            "status": "RESOURCE_EXHAUSTED",
            "details": [
                {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": []},
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay},
            ],
        }
    }


def openai(wait: str) -> dict:
    return {
        "error": {
            "message": "Rate limit reached for m-1 on tokens per min (TPM): Limit 30000, Used "
            f"29000, Requested 2000. Please try again in {wait}. Visit the rate limits page.",
            "type": "tokens",
            "code": "rate_limit_exceeded",
        }
    }


def unavailable(table, llm, status: int, body, headers=None) -> AgentUnavailable:
    llm.script = [(status, body, headers or {})]
    with pytest.raises(AgentUnavailable) as caught:
        run(table, llm)
    return caught.value


@pytest.mark.parametrize(
    ("status", "body", "wait"),
    [
        (429, google("12s"), 12),
        (429, [google("12s")], 12),
        (503, google("0.000340s"), 1),
        (429, openai("1.5s"), 2),
        (429, openai("20ms"), 1),
        (503, openai("7m12s"), 432),
        (429, openai("1h0m0.5s"), 3601),
    ],
    ids=["google", "google-listed", "google-fraction", "openai", "openai-ms", "openai-minutes",
         "openai-hours"],
)  # fmt: skip
def test_a_wait_in_the_error_body_is_carried_without_a_header(table, llm, status, body, wait):
    error = unavailable(table, llm, status, body)
    assert (error.code, error.retryable, error.details) == (
        "agent_unavailable", True, {"status": status, "retry_after": wait}
    )  # fmt: skip
    assert classify_error(error).retry_after == wait


@pytest.mark.parametrize(
    "headers",
    [{"Retry-After": "3"}, {"retry-after-ms": "2500"}],
)
def test_a_header_s_wait_wins_over_the_body_s(table, llm, headers):
    assert unavailable(table, llm, 429, google("40s"), headers).details == {
        "status": 429,
        "retry_after": 3,
    }


def test_a_header_asking_for_no_wait_leaves_the_body_s_wait(table, llm):
    assert unavailable(table, llm, 429, openai("9s"), {"Retry-After": "soon"}).details == {
        "status": 429,
        "retry_after": 9,
    }


def test_a_body_s_wait_of_decades_is_capped_as_a_header_s_is(table, llm):
    assert unavailable(table, llm, 429, google("9" * 400 + "s")).details == {
        "status": 429,
        "retry_after": 10**9,
    }


@pytest.mark.parametrize(
    "body",
    [google("0s"), google("-5s"), google("soon"), google("12"), openai("a moment"),
     {"error": {"message": "busy", "details": "12s"}}, {"error": "slow down"}, "busy"],
    ids=["zero", "negative", "words", "no-unit", "openai-words", "details-not-a-list",
         "error-text", "no-json"],
)  # fmt: skip
def test_a_body_asking_for_no_future_wait_is_left_out(table, llm, body):
    assert unavailable(table, llm, 503, body).details == {"status": 503}


def test_an_ok_answer_carrying_an_error_with_a_wait_in_its_body_carries_it(table, llm):
    error = unavailable(table, llm, 200, openai("2.2s"))
    assert error.details == {"retry_after": 3}
