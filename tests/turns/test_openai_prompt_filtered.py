"""An endpoint whose content filter refuses the conversation itself, as Azure OpenAI does with
HTTP 400 and the code `content_filter` when a player's gory action trips it, or with an OK
answer holding no choices and the filter's verdict on the prompt (a real local fake
chat-completions server and a live dnd5e server): the player is told so and to rephrase, not
that an operator must check the settings, and the turn is not retried (the same words would be
refused again)."""

from __future__ import annotations

import json
import logging

import pytest

from apps.turns.errors import AgentRejected, classify_error
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db
AZURE = {
    "error": {
        "message": "The response was filtered due to the prompt triggering Azure OpenAI's "
        "content management policy. Please modify your prompt and retry.",
        "type": None,
        "param": "prompt",
        "code": "content_filter",
        "status": 400,
        "innererror": {
            "code": "ResponsibleAIPolicyViolation",
            "content_filter_result": {"violence": {"filtered": True, "severity": "high"}},
        },
    }
}


@pytest.mark.parametrize("status", [400, 200], ids=["http", "in-an-ok-answer"])
def test_a_conversation_the_content_filter_refuses_asks_the_player_to_rephrase(
    table, llm, caplog, status
):
    llm.script = [(status, AZURE)]
    with (
        caplog.at_level(logging.WARNING, logger="apps.turns.agents.openai"),
        pytest.raises(AgentRejected) as caught,
    ):
        run(table, llm, "I tear the goblin apart")
    classified = classify_error(caught.value)
    assert classified == type(classified)(
        code="agent_content_filtered",
        retryable=False,
        recovery="Rephrase the action and try again.",
        message="The agent endpoint's content filter refused the turn's conversation.",
    )
    assert caught.value.details == {"status": 400}
    # The operators still read what the endpoint said.
    said = (
        f"HTTP 400 {json.dumps(AZURE)[:200]}"
        if status == 400
        else f"HTTP 200 with an error: {AZURE['error']['message']}"
    )
    assert [r.getMessage() for r in caplog.records] == [
        f"The agent endpoint refused the request: {said}"
    ]


@pytest.mark.parametrize(
    "error",
    [
        {"code": "invalid_request_error", "message": "content_filter is not a model"},
        {"code": "model_not_found", "message": "The model m-1 does not exist."},
    ],
)
def test_other_refusals_still_ask_an_operator(table, llm, error):
    llm.script = [(400, {"error": error})]
    with pytest.raises(AgentRejected) as caught:
        run(table, llm)
    assert (caught.value.code, caught.value.recovery) == (
        "agent_rejected",
        "An operator must check the agent provider's settings.",
    )


def filtered_prompt(filtered: bool) -> dict:
    """Azure OpenAI's answer to a prompt its filter blocks without an error: no choices, and
    the filter's verdict on the prompt."""
    verdict = {"violence": {"filtered": filtered, "severity": "high" if filtered else "safe"}}
    return {
        "id": "",
        "object": "",
        "choices": [],
        "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": verdict}],
        "usage": None,
    }


def test_an_ok_answer_with_no_choices_for_a_filtered_prompt_asks_to_rephrase(table, llm):
    llm.script = [(200, filtered_prompt(True))]
    with pytest.raises(AgentRejected) as caught:
        run(table, llm, "I tear the goblin apart")
    assert (caught.value.code, caught.value.retryable, caught.value.recovery) == (
        "agent_content_filtered",
        False,
        "Rephrase the action and try again.",
    )
