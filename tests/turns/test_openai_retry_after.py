"""An endpoint's Retry-After: carried by the error (a real local fake chat-completions
server and a live dnd5e server)."""

from __future__ import annotations

from datetime import timedelta
from email.utils import format_datetime

import pytest
from django.utils import timezone

from apps.turns.errors import AgentUnavailable
from tests.turns.conftest import make_table
from tests.turns.fake_llm import FakeLLM
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db


@pytest.fixture
def llm():
    fake = FakeLLM()
    yield fake
    fake.close()


@pytest.fixture
def table(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    table.call(gm, "phase_set", phase="play")
    return table


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


@pytest.mark.parametrize("value", ["soon", "-5", "1.5", "", "0", "Sun, 06 Nov 1994 08:49:37 GMT"])
def test_a_retry_after_that_asks_for_no_future_wait_is_left_out(table, llm, value):
    assert unavailable(table, llm, 503, value).details == {"status": 503}
