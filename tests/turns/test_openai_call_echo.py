"""The openai provider's echo of a model's tool calls in the next request: as the specification
has a call (a type, its arguments as JSON text), for a server that validates the conversation,
whatever shape the answer gave it."""

from __future__ import annotations

import json

import pytest

from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("function", "arguments", "ran"),
    [
        ({"name": "campaign_get", "arguments": None}, "{}", True),
        ({"name": "campaign_get"}, "{}", True),
        # Refused: a server that reads echoed calls again would refuse the request.
        ({"name": "dice_roll", "arguments": ["1d4"]}, "{}", False),
        ({"name": "dice_roll", "arguments": 4}, "{}", False),
    ],
)
def test_a_call_is_echoed_with_a_type_and_its_arguments_as_json_text(
    table, llm, function, arguments, ran
):
    llm.script = [
        (200, completion(tool_calls=[{"id": "c1", "function": function}])),
        (200, completion(content=FINAL)),
    ]
    _output, caller = run(table, llm)
    assert [o.ok for o in caller.outcomes] == ([True] if ran else [])
    echoed = llm.requests[1]["messages"][-2]["tool_calls"]
    assert echoed == [
        {
            "id": "c1",
            "type": "function",
            "function": {"name": function["name"], "arguments": arguments},
        }
    ]
    if not ran:
        assert json.loads(llm.requests[1]["messages"][-1]["content"]) == {
            "error": {"code": "invalid_arguments", "message": "arguments must be a JSON object"}
        }
