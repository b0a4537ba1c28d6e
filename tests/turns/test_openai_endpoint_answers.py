"""The openai provider against odd but possible answers of a real local fake endpoint."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import time

import pytest

from apps.turns.agents.openai import OpenAIAgent
from apps.turns.errors import AgentNotConfigured, classify_error
from apps.turns.types import AgentMessage, Deadline, EarlierStep
from tests.turns.fake_llm import completion, tool_call

pytestmark = pytest.mark.django_db
FINAL = json.dumps({"messages": [{"text": "The die lands.", "audience": "trigger"}]})
USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def run(table, llm, *, recorded=None, timeout=60.0, **turn_fields):
    turn = table.context(table.player, "roll a d20", job_id="j1")
    if recorded is not None:
        turn_fields["record_usage"] = recorded.append
    turn = dataclasses.replace(turn, **turn_fields)
    caller = table.caller(table.player, turn)
    agent = OpenAIAgent(
        base_url=llm.base_url, model="m-1", api_key="sk-secret-1234", timeout=timeout
    )
    return agent.run_turn(turn, caller), caller


def failure(table, llm, **extra):
    with pytest.raises(Exception) as caught:
        run(table, llm, **extra)
    classified = classify_error(caught.value)
    return classified.code, classified.retryable


def test_usage_of_an_answer_that_is_no_chat_completion_is_recorded(table, llm):
    llm.script = [(200, {"choices": [], "usage": USAGE})]
    recorded = []
    assert failure(table, llm, recorded=recorded) == ("agent_protocol_error", False)
    assert recorded == [{"model_calls": 1, **USAGE}]


def test_usage_that_is_no_object_is_a_protocol_error(table, llm):
    body = completion(content=FINAL)
    body["usage"] = "lots"
    llm.script = [(200, body)]
    assert failure(table, llm) == ("agent_protocol_error", False)


@pytest.mark.parametrize("calls", ["dice_roll", ["dice_roll"], [None], {"id": "c1"}])
def test_tool_calls_that_are_no_list_of_objects_are_a_protocol_error(table, llm, calls):
    body = completion(content=None)
    body["choices"][0]["message"]["tool_calls"] = calls
    llm.script = [(200, body)]
    assert failure(table, llm) == ("agent_protocol_error", False)


def test_the_api_key_an_endpoint_echoes_stays_out_of_the_log(table, llm, caplog):
    llm.script = [(401, {"error": "Incorrect API key provided: sk-secret-1234"})]
    with caplog.at_level(logging.WARNING, logger="apps.turns.agents.openai"):
        assert failure(table, llm) == ("agent_rejected", False)
    assert [r.getMessage() for r in caplog.records] == [
        "The agent endpoint refused the request: HTTP 401 "
        '{"error": "Incorrect API key provided: ***"}'
    ]


def test_a_request_timeout_status_is_retried(table, llm):
    llm.script = [(408, {"error": "request timed out"})]
    assert failure(table, llm) == ("agent_unavailable", True)


def test_eight_calls_in_one_answer_close_the_tools(table, llm):
    calls = [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(8)]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.tool_calls == 8
    assert [r["tool_choice"] for r in llm.requests] == ["auto", "none"]


def test_a_retry_whose_journal_spent_the_calls_offers_no_more(table, llm):
    earlier = tuple(EarlierStep("dice_roll", {"expression": "1d4"}) for _ in range(8))
    llm.script = [(200, completion(content=FINAL))]
    output, _caller = run(table, llm, earlier=earlier)
    assert (output.tool_calls, output.messages) == (8, (AgentMessage("The die lands."),))
    assert [r["tool_choice"] for r in llm.requests] == ["none"]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SAGASMITH_OPENAI_TIMEOUT", "0"),
        ("SAGASMITH_OPENAI_TIMEOUT", "-5"),
        ("SAGASMITH_OPENAI_TIMEOUT", "nan"),
        ("SAGASMITH_OPENAI_TIMEOUT", "inf"),
        ("SAGASMITH_OPENAI_BASE_URL", "127.0.0.1:8000/v1"),
        ("SAGASMITH_OPENAI_TIMEOUT", "soon"),
        ("SAGASMITH_OPENAI_BASE_URL", "ftp://models.example/v1"),
        ("SAGASMITH_OPENAI_BASE_URL", "http://[::1/v1"),
        ("SAGASMITH_OPENAI_API_KEY", "sk-s\u00e9cret"),
        ("SAGASMITH_OPENAI_API_KEY", "sk-a b"),
        ("SAGASMITH_OPENAI_MAX_TOKENS", "0"),
        ("SAGASMITH_OPENAI_MAX_TOKENS", "-1"),
        ("SAGASMITH_OPENAI_MAX_TOKENS", "lots"),
        ("SAGASMITH_OPENAI_MAX_TOKENS", "1.5"),
        ("SAGASMITH_OPENAI_MAX_TOKENS_FIELD", "max_length"),
        ("SAGASMITH_OPENAI_MAX_RESULT_CHARS", "0"),
        ("SAGASMITH_OPENAI_MAX_RESULT_CHARS", "-3"),
        ("SAGASMITH_OPENAI_MAX_RESULT_CHARS", "many"),
        ("SAGASMITH_OPENAI_MAX_RESULT_CHARS", "\u00b2"),
    ],
)
def test_unusable_settings_are_not_configured(monkeypatch, name, value):
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    monkeypatch.setenv(name, value)
    with pytest.raises(AgentNotConfigured) as caught:
        OpenAIAgent.from_settings()
    assert caught.value.details == {"setting": name}


def test_deeply_nested_answer_is_corrected_not_a_crash(table, llm):
    llm.script = [(200, completion(content="[" * 100000)), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)


def test_deeply_nested_arguments_are_refused_to_the_model(table, llm):
    nested = tool_call("c1", "dice_roll", '{"expression": ' + "[" * 100000)
    llm.script = [(200, completion(tool_calls=[nested])), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.tool_calls == 1
    assert json.loads(llm.requests[1]["messages"][-1]["content"]) == {
        "error": {"code": "invalid_arguments", "message": "arguments must be a JSON object"}
    }


def test_a_deeply_nested_endpoint_answer_is_a_protocol_error(table, llm):
    llm.script = [(200, "[" * 100000)]
    assert failure(table, llm) == ("agent_protocol_error", False)


def trickle(llm, seconds, body):
    """The fake endpoint sends a space every tenth of a second before its answer: each read
    is quick, the whole answer is slow (as a proxy keeping the connection alive does)."""

    class Trickling(llm.server.RequestHandlerClass):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            llm.requests.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            raw, steps = json.dumps(body).encode(), round(seconds * 10)
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(steps + len(raw)))
                self.end_headers()
                for _ in range(steps):
                    self.wfile.write(b" ")
                    time.sleep(0.1)
                self.wfile.write(raw)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up

    llm.server.RequestHandlerClass = Trickling


def test_an_answer_trickling_past_the_request_timeout_times_out(table, llm):
    trickle(llm, 3, completion(content=FINAL))
    started = time.monotonic()
    assert failure(table, llm, timeout=0.5) == ("agent_timeout", True)
    assert time.monotonic() - started < 1.5


def test_an_answer_trickling_past_the_turns_deadline_times_the_turn_out(table, llm):
    trickle(llm, 3, completion(content=FINAL))
    started = time.monotonic()
    assert failure(table, llm, deadline=Deadline.after(0.5)) == ("turn_timeout", False)
    assert time.monotonic() - started < 1.5


def test_an_answer_that_does_not_decode_is_a_protocol_error(table, llm):
    class Garbled(llm.server.RequestHandlerClass):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            llm.requests.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            raw = b"not gzip at all"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    llm.server.RequestHandlerClass = Garbled
    assert failure(table, llm) == ("agent_protocol_error", False)


def test_an_api_key_read_with_its_line_end_is_sent_without_it(table, llm, monkeypatch):
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    monkeypatch.setenv("SAGASMITH_OPENAI_API_KEY", "sk-secret-1234\n")
    llm.script = [(200, completion(content=FINAL))]
    turn = table.context(table.player, "roll a d20", job_id="j1")
    output = OpenAIAgent.from_settings().run_turn(turn, table.caller(table.player, turn))
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.headers[0]["Authorization"] == "Bearer sk-secret-1234"


def test_token_counts_that_are_negative_or_no_numbers_are_not_counted(table, llm):
    body = completion(content=FINAL)
    body["usage"] = {"prompt_tokens": -500, "completion_tokens": True, "total_tokens": 15}
    llm.script = [(200, body)]
    recorded = []
    run(table, llm, recorded=recorded)
    # A negative count would lower what the turn is charged.
    assert recorded == [{"model_calls": 1, "total_tokens": 15}]


def test_an_answer_past_the_size_limit_is_a_protocol_error(table, llm):
    from apps.turns.agents.openai import MAX_ANSWER_BYTES

    body = completion(content=FINAL)
    body["padding"] = "x" * MAX_ANSWER_BYTES
    llm.script = [(200, body)]
    assert failure(table, llm) == ("agent_protocol_error", False)


def test_every_request_bounds_the_completion_tokens(table, llm):
    calls = [tool_call("c1", "dice_roll", {"expression": "1d4"})]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    run(table, llm)
    assert [r["max_completion_tokens"] for r in llm.requests] == [8192, 8192]
    assert ["max_tokens" in r for r in llm.requests] == [False, False]


def test_the_completion_bound_and_its_field_come_from_the_environment(table, llm, monkeypatch):
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    monkeypatch.setenv("SAGASMITH_OPENAI_MAX_TOKENS", "512")
    monkeypatch.setenv("SAGASMITH_OPENAI_MAX_TOKENS_FIELD", "max_tokens")
    llm.script = [(200, completion(content=FINAL))]
    turn = table.context(table.player, "roll a d20", job_id="j1")
    OpenAIAgent.from_settings().run_turn(turn, table.caller(table.player, turn))
    assert llm.requests[0]["max_tokens"] == 512
    assert "max_completion_tokens" not in llm.requests[0]


def test_a_long_tool_result_reaches_the_model_trimmed_and_the_journal_whole(table, llm):
    from apps.turns.agents.openai import MAX_RESULT_CHARS

    turn = table.context(table.player, "read the rules", job_id="j1")
    caller = table.caller(table.player, turn)
    answered = []

    def long_resource(name, arguments):
        outcome = caller(name, arguments)
        answered.append(dataclasses.replace(outcome, structured={"text": "r" * 100_000}))
        return answered[-1]

    calls = [tool_call("c1", "dice_roll", {"expression": "1d4"})]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    agent = OpenAIAgent(base_url=llm.base_url, model="m-1")
    agent.run_turn(turn, long_resource)
    whole = json.dumps({"text": "r" * 100_000})
    assert MAX_RESULT_CHARS == 16_000
    assert llm.requests[1]["messages"][-1]["content"] == (
        whole[:16_000] + f"\n[truncated: the tool result has {len(whole)} characters; only the "
        "first 16000 are shown]"
    )
    assert answered[0].structured == {"text": "r" * 100_000}


def test_the_tool_result_cap_comes_from_the_environment(table, llm, monkeypatch):
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    monkeypatch.setenv("SAGASMITH_OPENAI_MAX_RESULT_CHARS", "20")
    calls = [tool_call("c1", "dice_roll", {"expression": "1d4"})]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    turn = table.context(table.player, "roll a d4", job_id="j1")
    caller = table.caller(table.player, turn)
    OpenAIAgent.from_settings().run_turn(turn, caller)
    whole = json.dumps(caller.outcomes[0].structured)
    assert len(whole) > 20
    assert llm.requests[1]["messages"][-1]["content"] == (
        whole[:20] + f"\n[truncated: the tool result has {len(whole)} characters; only the "
        "first 20 are shown]"
    )


def cut_off(content):
    body = completion(content=content)
    body["choices"][0]["finish_reason"] = "length"
    return body


def test_an_answer_cut_off_at_the_token_bound_is_corrected_as_too_long(table, llm):
    llm.script = [
        (200, cut_off('{"messages": [{"text": "The die')),
        (200, completion(content=FINAL)),
    ]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-1] == {
        "role": "user",
        "content": "Your answer was invalid: the answer was cut off at the limit of 8192 tokens; "
        "give a shorter one. Reply with only the JSON object described in the instructions.",
    }


def test_an_answer_cut_off_twice_fails_naming_the_token_bound(table, llm):
    llm.script = [
        (200, cut_off('{"messages": [{"text": "The die')),
        (200, cut_off('{"messages": [')),
    ]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    assert classify_error(caught.value).code == "agent_output_invalid"
    assert caught.value.details == {
        "reason": "the answer was cut off at the limit of 8192 tokens; give a shorter one"
    }


def test_the_default_token_bound_holds_the_largest_valid_answer():
    """Four messages of the longest text, at two characters a token (text outside English
    takes more tokens than English), with room left for a reasoning model's thinking."""
    from apps.turns.agents.openai import DEFAULT_MAX_TOKENS
    from apps.turns.types import MAX_MESSAGE_CHARS, MAX_MESSAGES

    assert DEFAULT_MAX_TOKENS == 8192 >= MAX_MESSAGES * MAX_MESSAGE_CHARS // 2


def test_an_exhausted_account_is_refused_not_retried(table, llm, caplog):
    """OpenAI answers 429 both for "slow down" and for an account out of credits; only the
    first passes on a new attempt."""
    exhausted = {"error": {"message": "You exceeded your current quota.",
                           "type": "insufficient_quota", "code": "insufficient_quota"}}  # fmt: skip
    llm.script = [(429, exhausted)]
    with caplog.at_level(logging.WARNING, logger="apps.turns.agents.openai"):
        assert failure(table, llm) == ("agent_rejected", False)
    assert len(llm.requests) == 1
    assert [r.getMessage()[:52] for r in caplog.records] == [
        'The agent endpoint refused the request: HTTP 429 {"e'
    ]
    llm.script = [(429, {"error": {"message": "Rate limit reached.", "type": "requests",
                                   "code": "rate_limit_exceeded"}})]  # fmt: skip
    assert failure(table, llm) == ("agent_unavailable", True)


def refusal(text):
    body = completion(content=None)
    body["choices"][0]["message"]["refusal"] = text
    return body


def refused_in_parts(*parts: str) -> dict:
    """A refusal as OpenAI's content parts put it: one `refusal` part per argument."""
    body = completion(content=None)
    body["choices"][0]["message"]["content"] = [
        {"type": "refusal", "refusal": part} for part in parts
    ]
    return body


def refused_word_by_word(text: str) -> dict:
    return refused_in_parts(*re.findall(r"\S+\s*", text))


# A refusal as a `refusal` field, and as content parts: the model is told the same of both.
REFUSED = pytest.mark.parametrize(
    "refused", [refusal, refused_word_by_word], ids=["field", "parts"]
)


@REFUSED
def test_a_refusal_is_sent_back_to_be_told_to_the_player(table, llm, refused):
    llm.script = [(200, refused("I can't help with that.")), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-2:] == [
        {"role": "assistant", "content": "I can't help with that."},
        {
            "role": "user",
            "content": "Your answer was invalid: the answer is a refusal (\"I can't help with "
            "that.\"); if the player's request cannot be done, say so in the messages. Reply "
            "with only the JSON object described in the instructions.",
        },
    ]


@REFUSED
def test_a_second_refusal_fails_saying_the_model_refused(table, llm, refused):
    llm.script = [(200, refused("No.")), (200, refused("Still no."))]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    assert classify_error(caught.value).code == "agent_output_invalid"
    assert caught.value.details == {
        "reason": 'the answer is a refusal ("Still no."); if the player\'s request cannot be '
        "done, say so in the messages"
    }


def test_a_reasoning_models_thinking_before_the_answer_is_not_an_error(table, llm):
    """Local reasoning models served without a reasoning parser put their thinking in the
    content, in a <think> block before the answer."""
    thought = "<think>\nThe player rolls; {the tool said 14}.\n</think>\n\n"
    llm.script = [(200, completion(content=thought + FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)
    assert len(llm.requests) == 1


def test_arguments_given_as_an_object_rather_than_json_text_are_used(table, llm):
    """Some compatible servers send a call's arguments as a JSON object, not as its text."""
    call = {"id": "c1", "type": "function",
            "function": {"name": "dice_roll", "arguments": {"expression": "1d4"}}}  # fmt: skip
    llm.script = [(200, completion(tool_calls=[call])), (200, completion(content=FINAL))]
    _output, caller = run(table, llm)
    assert [(o.tool, o.ok) for o in caller.outcomes] == [("dice_roll", True)]
    shown = json.loads(llm.requests[1]["messages"][-1]["content"])
    assert shown["total"] == caller.outcomes[0].structured["total"]
    # Sent back as the specification has it, for a server that validates the conversation.
    echoed = llm.requests[1]["messages"][-2]["tool_calls"]
    function = {"name": "dice_roll", "arguments": '{"expression": "1d4"}'}
    assert echoed == [{"id": "c1", "type": "function", "function": function}]


def test_an_answer_stopped_by_the_content_filter_is_corrected_as_such(table, llm):
    """An endpoint's content filter (Azure's, for one) may stop a gory combat narration."""
    filtered = completion(content=None)
    filtered["choices"][0]["finish_reason"] = "content_filter"
    llm.script = [(200, filtered), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-1] == {
        "role": "user",
        "content": "Your answer was invalid: the answer was stopped by the endpoint's content "
        "filter; tell it in milder words. Reply with only the JSON object described in the "
        "instructions.",
    }


def test_tool_calls_without_ids_are_answered_each_under_its_own_id(table, llm):
    """A server that gives its calls no id (or the same one twice) still gets each answer
    paired with its call."""
    calls = [tool_call("", "dice_roll", {"expression": "1d4"}),
             tool_call("dup", "dice_roll", {"expression": "1d6"}),
             tool_call("dup", "dice_roll", {"expression": "1d8"}),
             tool_call("", "dice_roll", {"expression": "1d10"})]  # fmt: skip
    del calls[0]["id"]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    _output, caller = run(table, llm)
    sent = llm.requests[1]["messages"]
    ids = ["call00001", "dup", "call00003", "call00004"]
    assert [c["id"] for c in sent[-5]["tool_calls"]] == ids
    assert [m["tool_call_id"] for m in sent[-4:]] == ids
    shown = [json.loads(m["content"])["total"] for m in sent[-4:]]
    assert shown == [o.structured["total"] for o in caller.outcomes]


def test_a_redirected_endpoint_is_refused_naming_where_it_points(table, llm, caplog):
    """An http:// base URL whose server redirects to https:// is a setting to correct, not an
    answer that is no chat completion (a POST is not followed: it would arrive as a GET)."""

    class Moved(llm.server.RequestHandlerClass):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            llm.requests.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(301)
            self.send_header("Location", "https://models.example/v1/chat/completions")
            self.send_header("Content-Length", "0")
            self.end_headers()

    llm.server.RequestHandlerClass = Moved
    with caplog.at_level(logging.WARNING, logger="apps.turns.agents.openai"):
        assert failure(table, llm) == ("agent_rejected", False)
    assert [r.getMessage() for r in caplog.records] == [
        "The agent endpoint refused the request: HTTP 301 (redirected to "
        "https://models.example/v1/chat/completions) "
    ]


def test_an_unavailable_endpoints_answer_is_logged_for_the_operators(table, llm, caplog):
    """A retried failure still says why: a model that is loading, an overloaded account."""
    llm.script = [(503, {"error": "model m-1 is loading; key sk-secret-1234"})]
    with caplog.at_level(logging.WARNING, logger="apps.turns.agents.openai"):
        assert failure(table, llm) == ("agent_unavailable", True)
    assert [r.getMessage() for r in caplog.records] == [
        'The agent endpoint is unavailable: HTTP 503 {"error": "model m-1 is loading; key ***"}'
    ]


def test_a_final_answer_with_a_stray_call_past_the_limit_is_used_and_the_call_not_run(table, llm):
    """A server that ignores tool_choice "none" lets a model add a call to its final answer."""
    before = table.revision()
    calls = [tool_call(f"c{i}", "dice_roll", {"expression": "1d4"}) for i in range(8)]
    stray = completion(
        content=FINAL, tool_calls=[tool_call("c9", "dice_roll", {"expression": "1d4"})]
    )
    llm.script = [(200, completion(tool_calls=calls)), (200, stray)]
    output, caller = run(table, llm)
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 8)
    assert (len(caller.outcomes), table.revision()) == (8, before + 8)


def test_a_call_cut_off_at_the_token_bound_is_refused_as_too_long(table, llm):
    body = completion(tool_calls=[tool_call("c1", "dice_roll", '{"expression": "1d')])
    body["choices"][0]["finish_reason"] = "length"
    llm.script = [(200, body), (200, completion(content=FINAL))]
    _output, caller = run(table, llm)
    assert caller.outcomes == []
    assert json.loads(llm.requests[1]["messages"][-1]["content"]) == {
        "error": {
            "code": "invalid_arguments",
            "message": "the arguments were cut off at the limit of 8192 tokens; make fewer or "
            "shorter calls",
        }
    }


def test_a_retrys_earlier_calls_carry_ids_a_strict_server_accepts(table, llm):
    """Mistral models (as vLLM serves them) refuse a call id that is not 9 letters or digits."""
    earlier = tuple(EarlierStep("dice_roll", {"expression": "1d4"}) for _ in range(2))
    calls = [tool_call("", "dice_roll", {"expression": "1d6"})]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    run(table, llm, earlier=earlier)
    sent = llm.requests[1]["messages"]
    assert [c["id"] for c in sent[2]["tool_calls"]] == ["call00001", "call00002"]
    assert [m["tool_call_id"] for m in sent[3:5]] == ["call00001", "call00002"]
    assert [c["id"] for c in sent[5]["tool_calls"]] == ["call00003"]
    assert sent[6]["tool_call_id"] == "call00003"


@pytest.mark.parametrize("status", [501, 505])
def test_an_endpoint_that_cannot_serve_the_request_is_refused_not_retried(table, llm, status):
    """Not Implemented and HTTP Version Not Supported answer every new attempt the same way."""
    llm.script = [(status, {"error": "not supported"})]
    assert failure(table, llm) == ("agent_rejected", False)
    assert len(llm.requests) == 1


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_a_passing_server_failure_is_retried(table, llm, status):
    llm.script = [(status, {"error": "try later"})]
    assert failure(table, llm) == ("agent_unavailable", True)


@pytest.mark.parametrize(
    "error",
    [
        {"message": "upstream failed", "type": "server_error"},
        {"message": "upstream busy", "type": "overloaded_error"},
        {"message": "slow down", "code": "rate_limit_exceeded"},
        {"message": "upstream said 429", "code": 429},
        {"message": "upstream said 503", "status": 503},
        {"message": "upstream said 502", "code": "502"},
    ],
)
def test_an_ok_answer_carrying_a_passing_upstream_error_is_retried(table, llm, caplog, error):
    """Some proxies answer HTTP 200 with the upstream's error and no choices."""
    error = {**error, "message": f"{error['message']} for key sk-secret-1234"}
    llm.script = [(200, {"error": error})]
    with caplog.at_level(logging.WARNING, logger="apps.turns.agents.openai"):
        assert failure(table, llm) == ("agent_unavailable", True)
    masked = error["message"].replace("sk-secret-1234", "***")
    assert [r.getMessage() for r in caplog.records] == [
        f"The agent endpoint is unavailable: HTTP 200 with an error: {masked}"
    ]


def test_an_ok_answer_carrying_a_passing_error_tells_the_player_no_details(table, llm):
    llm.script = [(200, {"error": {"message": "key sk-secret-1234 throttled",
                                   "type": "server_error"}})]  # fmt: skip
    with pytest.raises(Exception) as caught:
        run(table, llm)
    assert classify_error(caught.value).message == (
        "The agent endpoint reported a passing failure."
    )


@pytest.mark.parametrize(
    "error",
    [
        {"message": "Incorrect API key", "code": 401},
        {"message": "You exceeded your current quota.", "code": "insufficient_quota",
         "status": 429},
        {"message": "unknown model", "status": 501},
    ],
)  # fmt: skip
def test_an_ok_answer_carrying_a_lasting_upstream_error_is_refused(table, llm, caplog, error):
    llm.script = [(200, {"error": error})]
    with caplog.at_level(logging.WARNING, logger="apps.turns.agents.openai"):
        assert failure(table, llm) == ("agent_rejected", False)
    assert [r.getMessage() for r in caplog.records] == [
        f"The agent endpoint refused the request: HTTP 200 with an error: {error['message']}"
    ]


def test_an_ok_answer_carrying_an_unknown_error_stays_a_protocol_error(table, llm, caplog):
    llm.script = [(200, {"error": {"message": "something odd", "type": "invalid_thing"}})]
    with caplog.at_level(logging.WARNING, logger="apps.turns.agents.openai"):
        assert failure(table, llm) == ("agent_protocol_error", False)
    assert [r.getMessage() for r in caplog.records] == [
        "The agent endpoint answered HTTP 200 with an error: something odd"
    ]
