"""A conversation longer than the model's context (a real local fake chat-completions server
and a live dnd5e server), as OpenAI-compatible servers word it: no setting is wrong and no new
attempt passes, so the player is told the conversation is too long and what to do, not that an
operator must fix the provider's settings."""

from __future__ import annotations

import logging

import pytest

from apps.turns.agents.openai import MAX_TOOL_CALLS
from apps.turns.errors import classify_error
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db
LOGGER = "apps.turns.agents.openai"
TOO_LONG = (
    "agent_context_too_long",
    False,
    "The conversation is too long for the agent's model.",
    "Send a shorter action, or split it into smaller steps. If short actions fail too, an "
    "operator must give the agent a model with a longer context or a lower token bound.",
)

OPENAI = {"error": {"message": "This model's maximum context length is 128000 tokens. However, "
                               "your messages resulted in 130000 tokens.",
                    "type": "invalid_request_error", "param": "messages",
                    "code": "context_length_exceeded"}}  # fmt: skip
LLAMA_CPP = {"error": {"code": 400, "type": "exceed_context_size_error", "n_prompt_tokens": 5000,
                       "n_ctx": 4096, "message": "the request exceeds the available context "
                       "size, try increasing it"}}  # fmt: skip
# vLLM (before it wrapped its errors) and SGLang answer with the error object itself.
VLLM = {"object": "error", "type": "BadRequestError", "param": None, "code": 400,
        "message": "This model's maximum context length is 4096 tokens. However, you requested "
                   "9000 tokens (808 in the messages, 8192 in the completion)."}  # fmt: skip
ANTHROPIC_VIA_ROUTER = {"error": {"code": 400, "message": "prompt is too long: 210000 tokens > "
                                                          "200000 maximum"}}  # fmt: skip
GOOGLE = [{"error": {"code": 400, "status": "INVALID_ARGUMENT",
                     "message": "The input token count (1200000) exceeds the maximum number "
                                "of tokens allowed (1048576)."}}]  # fmt: skip
LM_STUDIO = {"error": "Trying to keep the first 5000 tokens when context the overflows. However, "
                      "the model is loaded with context length of only 4096 tokens."}  # fmt: skip


def failure(table, llm, status, body):
    llm.script = [(status, body)]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    found = classify_error(caught.value)
    return found.code, found.retryable, found.message, found.recovery


@pytest.mark.parametrize(
    "body",
    [OPENAI, LLAMA_CPP, VLLM, ANTHROPIC_VIA_ROUTER, GOOGLE, LM_STUDIO],
    ids=["openai", "llama.cpp", "vllm", "anthropic-via-router", "google", "lm-studio"],
)
def test_a_refused_conversation_too_long_for_the_model_says_so(table, llm, caplog, body):
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert failure(table, llm, 400, body) == TOO_LONG
    # The operators still read what the endpoint said.
    assert [r.getMessage()[:49] for r in caplog.records] == [
        "The agent endpoint refused the request: HTTP 400 "
    ]
    assert len(llm.requests) == 1


def test_a_conversation_too_long_is_not_retried_under_a_server_error_status(table, llm):
    assert failure(table, llm, 500, LLAMA_CPP) == TOO_LONG


@pytest.mark.parametrize(
    "error",
    [OPENAI["error"], {"message": OPENAI["error"]["message"], "code": 400}],
    ids=["by-code", "by-words"],
)
def test_an_ok_answer_carrying_a_conversation_too_long_says_so(table, llm, error):
    assert failure(table, llm, 200, {"error": error}) == TOO_LONG


@pytest.mark.parametrize(
    "error",
    [{"message": "Incorrect API key provided.", "code": "invalid_api_key"},
     {"message": "The model `m-1` does not exist.", "code": "model_not_found"}],
)  # fmt: skip
def test_other_refusals_stay_the_operators_to_fix(table, llm, error):
    assert failure(table, llm, 400, {"error": error})[:2] == ("agent_rejected", False)


def test_a_conversation_too_long_after_the_tools_were_withdrawn_says_so(table, llm):
    # The conversation is at its longest once the tool calls are spent; its being too long is
    # no server refusing tool calls in a conversation that offers none (the tool limit).
    calls = [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(9)]
    llm.script = [
        (200, completion(tool_calls=calls[:MAX_TOOL_CALLS])),
        (200, completion(tool_calls=calls[MAX_TOOL_CALLS:])),  # tool_choice "none" ignored
        (400, OPENAI),
    ]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    found = classify_error(caught.value)
    assert (found.code, found.retryable, found.message, found.recovery) == TOO_LONG
    assert len(llm.requests) == 3


@pytest.mark.parametrize(
    "message",
    [
        "'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's maximum "
        "context length is 4096 tokens and your request has 900 input tokens "
        "(8192 > 4096 - 900).",
        "max_tokens must be at most the context length of 4096 tokens",
    ],
)
def test_a_token_bound_past_the_models_context_is_the_operators_to_fix(table, llm, message):
    # No action is short enough: SAGASMITH_OPENAI_MAX_TOKENS alone exceeds the context.
    body = {"object": "error", "type": "BadRequestError", "code": 400, "message": message}
    code, retryable, _message, recovery = failure(table, llm, 400, body)
    assert (code, retryable, recovery) == (
        "agent_rejected",
        False,
        "An operator must check the agent provider's settings.",
    )
