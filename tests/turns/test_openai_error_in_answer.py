"""An HTTP 200 whose body is an error object, as some OpenAI-compatible servers and proxies
answer (a real local fake chat-completions server and a live dnd5e server): classed as the
same failure as an HTTP answer of its status, with the wait the endpoint asks for."""

from __future__ import annotations

import logging

import pytest
from django.utils import timezone

from apps.turns.errors import AgentUnavailable, classify_error
from apps.turns.models import RoomTurnJob
from apps.turns.services import turn_run
from tests.turns.test_jobs import submit
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("error", "headers", "details"),
    [
        ({"message": "Rate limit reached", "code": 429}, {"Retry-After": "7"},
         {"status": 429, "retry_after": 7}),
        ({"message": "slow down", "type": "rate_limit_error"}, {"retry-after-ms": "1500"},
         {"retry_after": 2}),
        ({"message": "overloaded", "status": 503}, {}, {"status": 503}),
    ],
)  # fmt: skip
def test_an_ok_answer_carrying_a_rate_limit_carries_the_wait_it_asks_for(
    table, llm, error, headers, details
):
    llm.script = [(200, {"error": error}, headers)]
    with pytest.raises(AgentUnavailable) as caught:
        run(table, llm)
    assert (caught.value.code, caught.value.retryable, caught.value.details) == (
        "agent_unavailable", True, details
    )  # fmt: skip


def test_an_ok_answer_whose_error_is_text_says_it_holds_an_error(table, llm, caplog):
    llm.script = [(200, {"error": "Too many requests"})]
    with (
        caplog.at_level(logging.WARNING, logger="apps.turns.agents.openai"),
        pytest.raises(Exception) as caught,
    ):
        run(table, llm)
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable, classified.message) == (
        "agent_protocol_error",
        False,
        "The agent endpoint's answer is not a chat completion: it holds an error and no choices",
    )
    assert [r.getMessage() for r in caplog.records] == [
        "The agent endpoint answered HTTP 200 with an error: Too many requests"
    ]


def test_a_turn_whose_endpoint_answered_a_rate_limit_in_an_ok_answer_waits_as_asked(
    dnd_room, llm, settings, monkeypatch, django_capture_on_commit_callbacks, turns_stay_queued
):
    settings.SAGASMITH_AGENT_PROVIDER = "openai"
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    llm.script = [(200, {"error": {"message": "Rate limit reached", "code": 429}},
                   {"Retry-After": "40"})]  # fmt: skip
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(dnd_room, dnd_room.player)
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    before = timezone.now()
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "queued"
    job.refresh_from_db()
    assert 40 <= (job.available_at - before).total_seconds() < 45
    assert (job.error_code, job.retryable, job.recovery) == (
        "agent_unavailable", True, "The turn will be retried automatically in 40 seconds."
    )  # fmt: skip
