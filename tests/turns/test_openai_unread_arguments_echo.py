"""A tool call whose arguments the platform could not read (cut off by the token bound, no
JSON, no object) goes back in the conversation with "{}" as its arguments (a real local fake
chat-completions server that reads echoed calls again as vLLM and llama.cpp do, and a live
dnd5e server). Those servers parse every echoed call's arguments to render the chat template
and refuse the whole request (HTTP 400) when one is no JSON object, so the echo of one
malformed call failed the turn instead of letting the model correct it. The call's tool
answer tells the model why it was refused."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db
REFUSED = {"error": {"code": "invalid_arguments", "message": "arguments must be a JSON object"}}
TOO_LONG = {
    "error": {
        "code": "invalid_arguments",
        "message": "the arguments hold a number too long to read (at most 4300 digits)",
    }
}

NOT_FINITE = {
    "error": {
        "code": "invalid_arguments",
        "message": "the arguments hold a number that is not finite (NaN, an infinity, or too "
        "large to store)",
    }
}


@pytest.mark.parametrize(
    ("arguments", "answer"),
    [
        ('{"expression": "1d', REFUSED),
        ("roll 1d4", REFUSED),
        ('["1d4"]', REFUSED),
        (json.dumps("1d4"), REFUSED),
        ('{"expression": ' + "1" * 5000 + "}", TOO_LONG),
        ('{"expression": NaN}', NOT_FINITE),
    ],
    ids=["cut", "no-json", "array", "text", "long-number", "not-finite"],
)
def test_a_call_with_unread_arguments_is_echoed_with_none(table, llm, arguments, answer):
    llm.rereads_calls = True
    llm.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", arguments)])),
        (200, completion(content=FINAL)),
    ]
    output, caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert caller.outcomes == []
    sent = llm.requests[1]["messages"]
    assert sent[2]["tool_calls"] == [
        {"id": "c1", "type": "function", "function": {"name": "dice_roll", "arguments": "{}"}}
    ]
    assert json.loads(sent[3]["content"]) == answer


def test_arguments_encoded_twice_are_echoed_as_the_object_run(table, llm):
    llm.rereads_calls = True
    twice = json.dumps(json.dumps({"expression": "1d4"}))
    llm.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", twice)])),
        (200, completion(content=FINAL)),
    ]
    _output, caller = run(table, llm)
    assert [outcome.ok for outcome in caller.outcomes] == [True]
    assert llm.requests[1]["messages"][2]["tool_calls"][0]["function"] == {
        "name": "dice_roll",
        "arguments": '{"expression": "1d4"}',
    }


def test_readable_arguments_are_echoed_as_written(table, llm):
    llm.rereads_calls = True
    written = '{ "expression":"1d4" }'
    llm.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", written)])),
        (200, completion(content=FINAL)),
    ]
    run(table, llm)
    assert llm.requests[1]["messages"][2]["tool_calls"][0]["function"]["arguments"] == written
