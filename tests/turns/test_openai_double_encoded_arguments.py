"""A call whose arguments are JSON text of JSON text, as some models and servers send them (a
real local fake chat-completions server and a live dnd5e server): the object inside is run, as
its model meant, rather than refused call after call as no JSON object."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def test_arguments_encoded_twice_are_run_as_the_object_inside(table, llm):
    before = table.revision()
    twice = json.dumps(json.dumps({"expression": "1d4"}))
    llm.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", twice)])),
        (200, completion(content=FINAL)),
    ]
    output, caller = run(table, llm)
    assert (output.messages, [o.ok for o in caller.outcomes], table.revision()) == (
        (AgentMessage("The die lands."),), [True], before + 1
    )  # fmt: skip
    assert caller.outcomes[0].structured["expression"] == "1d4"


@pytest.mark.parametrize(
    "arguments",
    [json.dumps("1d4"), json.dumps(json.dumps(["1d4"])), json.dumps(json.dumps(json.dumps({})))],
    ids=["text", "array-inside", "three-times"],
)
def test_text_holding_no_object_is_still_refused(table, llm, arguments):
    llm.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", arguments)])),
        (200, completion(content=FINAL)),
    ]
    _output, caller = run(table, llm)
    assert caller.outcomes == []
    assert json.loads(llm.requests[1]["messages"][-1]["content"]) == {
        "error": {"code": "invalid_arguments", "message": "arguments must be a JSON object"}
    }
