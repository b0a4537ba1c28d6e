"""An endpoint that breaks its connection off (a real local fake chat-completions server that
closes halfway through an answer, and a port nothing listens on): the turn is retried, and the
player reads what happened in words, never the name of a Python class, which goes to the
error's details for the operators."""

from __future__ import annotations

import socket

import pytest

from apps.turns.agents.openai import OpenAIAgent
from apps.turns.errors import AgentUnavailable, classify_error
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def test_an_answer_broken_off_halfway_is_retried_and_said_so(table, llm):
    llm.script = [("drop", completion(content=FINAL))]
    with pytest.raises(AgentUnavailable) as caught:
        run(table, llm)
    assert caught.value.message == "The agent endpoint broke off its answer."
    assert caught.value.details == {"reason": "RemoteProtocolError"}
    classified = classify_error(caught.value)
    assert (classified.code, classified.retryable) == ("agent_unavailable", True)
    assert classified.message == "The agent endpoint broke off its answer."


def test_an_endpoint_nothing_listens_on_is_unreachable_in_words(table):
    # Held (bound, never listening): it refuses, and no other process can take it meanwhile.
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        turn = table.context(table.player, "roll a d20", job_id="j1", trigger_audience="public")
        agent = OpenAIAgent(base_url=f"http://127.0.0.1:{port}/v1", model="m-1")
        with pytest.raises(AgentUnavailable) as caught:
            agent.run_turn(turn, table.caller(table.player, turn))
    assert caught.value.message == "The agent endpoint is unreachable."
    assert caught.value.details == {"reason": "ConnectError"}
    assert classify_error(caught.value).retryable is True
