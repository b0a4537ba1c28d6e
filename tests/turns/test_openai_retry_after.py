"""An endpoint's Retry-After: carried by the error, honoured by the job's requeue, told to the
player (a real local fake chat-completions server and a live dnd5e server)."""

from __future__ import annotations

from datetime import timedelta
from email.utils import format_datetime

import pytest
from django.utils import timezone

from apps.turns.errors import AgentUnavailable
from apps.turns.models import RoomTurnJob
from apps.turns.services import turn_run
from tests.turns.test_jobs import submit
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db


@pytest.fixture
def model(llm, settings, monkeypatch, turns_stay_queued):
    """The openai provider of the job runs, against the fake endpoint."""
    settings.SAGASMITH_AGENT_PROVIDER = "openai"
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    return llm


def unavailable(table, llm, status, retry_after: str) -> AgentUnavailable:
    llm.script = [(status, {"error": "slow down"}, {"Retry-After": retry_after})]
    with pytest.raises(AgentUnavailable) as caught:
        run(table, llm)
    return caught.value


def test_a_rate_limit_carries_the_seconds_its_retry_after_asks_for(table, llm):
    error = unavailable(table, llm, 429, "7")
    assert (error.code, error.retryable, error.details) == (
        "agent_unavailable", True, {"status": 429, "retry_after": 7}
    )  # fmt: skip


def test_an_overloaded_endpoint_s_retry_after_date_becomes_seconds_from_now(table, llm):
    when = format_datetime(timezone.now() + timedelta(seconds=30), usegmt=True)
    error = unavailable(table, llm, 503, when)
    # The date has whole seconds: 29 to 30 of them are left when it is read.
    assert set(error.details) == {"status", "retry_after"}
    assert 29 <= error.details["retry_after"] <= 30


@pytest.mark.parametrize(
    ("headers", "wait"),
    [
        ({"retry-after-ms": "1500"}, 2),  # whole seconds, rounded up
        ({"retry-after-ms": "20000", "Retry-After": "3"}, 20),  # the finer of the two
        ({"retry-after-ms": "soon", "Retry-After": "3"}, 3),
    ],
)
def test_a_retry_after_in_milliseconds_is_read_too(table, llm, headers, wait):
    llm.script = [(429, {"error": "slow down"}, headers)]
    with pytest.raises(AgentUnavailable) as caught:
        run(table, llm)
    assert caught.value.details == {"status": 429, "retry_after": wait}


@pytest.mark.parametrize("value", ["soon", "-5", "1.5", "", "0", "Sun, 06 Nov 1994 08:49:37 GMT"])
def test_a_retry_after_that_asks_for_no_future_wait_is_left_out(table, llm, value):
    assert unavailable(table, llm, 503, value).details == {"status": 503}


def run_once(job, capture) -> str:
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    with capture(execute=False):
        outcome = turn_run(job_id=job.pk, heartbeat=False)
    job.refresh_from_db()
    return outcome


def test_a_requeued_turn_waits_as_long_as_the_endpoint_asked_and_says_so(
    dnd_room, model, django_capture_on_commit_callbacks
):
    model.script = [(429, {"error": "slow down"}, {"Retry-After": "40"})]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(dnd_room, dnd_room.player)
    before = timezone.now()
    assert run_once(job, django_capture_on_commit_callbacks) == "queued"
    assert job.status == "queued"
    # Not the 2 s backoff of a first retry: the endpoint would refuse that one too.
    waited = (job.available_at - before).total_seconds()
    assert 40 <= waited < 45
    assert (job.error_code, job.retryable, job.recovery) == (
        "agent_unavailable", True, "The turn will be retried automatically in 40 seconds."
    )  # fmt: skip


def test_a_wait_longer_than_a_turn_may_wait_fails_the_turn_telling_the_wait(
    dnd_room, model, django_capture_on_commit_callbacks
):
    """A queued turn holds the player's credits and its room slot in the list of turns in
    progress: an hour's wait (or a hostile server's year) ends it now, saying when to act."""
    model.script = [(429, {"error": "slow down"}, {"Retry-After": "3600"})]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(dnd_room, dnd_room.player)
    run_once(job, django_capture_on_commit_callbacks)
    assert (job.status, job.attempt, len(model.requests)) == ("failed", 1, 1)
    assert (job.error_code, job.retryable, job.recovery) == (
        "agent_unavailable",
        False,
        "Nothing happened in the game. Send the action again in 60 minutes.",
    )


def test_a_turn_out_of_attempts_tells_the_wait_the_endpoint_asked_for(
    dnd_room, model, settings, django_capture_on_commit_callbacks
):
    settings.SAGASMITH_TURN_MAX_ATTEMPTS = 1
    model.script = [(503, {"error": "overloaded"}, {"Retry-After": "150"})]
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(dnd_room, dnd_room.player)
    run_once(job, django_capture_on_commit_callbacks)
    assert (job.status, job.error_code, job.retryable, job.recovery) == (
        "failed",
        "attempts_exhausted",
        False,
        "Nothing happened in the game. Send the action again in 3 minutes.",
    )
