"""The endpoint's host name is looked up within the whole request's time (a real local fake
chat-completions server, a live dnd5e server, and a name lookup made slow as a dead name server
makes it): the lookup blocks with no timeout of its own, so a name that resolves slowly held the
turn past its timeout, however short."""

from __future__ import annotations

import socket
import time

import pytest

from apps.turns.types import AgentMessage, Deadline
from tests.turns.fake_llm import completion
from tests.turns.test_openai_endpoint_answers import FINAL, failure, run

pytestmark = pytest.mark.django_db
SLOW_NAME = "slow-llm.test"


def slow_lookups(monkeypatch, llm, seconds):
    """The fake endpoint is reached by a name whose every lookup takes `seconds`."""
    real = socket.getaddrinfo

    def lookup(host, port, *args, **kwargs):
        if host == SLOW_NAME:
            time.sleep(seconds)
            host = "127.0.0.1"
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    llm.base_url = llm.base_url.replace("127.0.0.1", SLOW_NAME)
    llm.script = [(200, completion(content=FINAL))]


def test_a_name_resolving_past_the_request_timeout_times_out(table, llm, monkeypatch):
    slow_lookups(monkeypatch, llm, 3)
    started = time.monotonic()
    assert failure(table, llm, timeout=0.5) == ("agent_timeout", True)
    assert time.monotonic() - started < 1.5
    assert llm.requests == []


def test_a_name_resolving_past_the_turns_deadline_times_the_turn_out(table, llm, monkeypatch):
    slow_lookups(monkeypatch, llm, 3)
    started = time.monotonic()
    assert failure(table, llm, deadline=Deadline.after(0.5)) == ("turn_timeout", False)
    assert time.monotonic() - started < 1.5
    assert llm.requests == []


def test_a_name_resolving_in_time_is_reached(table, llm, monkeypatch):
    slow_lookups(monkeypatch, llm, 0.2)
    output, _caller = run(table, llm, timeout=5)
    assert output.messages == (AgentMessage("The die lands."),)
    assert len(llm.requests) == 1
