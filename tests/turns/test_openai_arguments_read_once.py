"""Each tool call's arguments are read once, for both its echo and its run (a real local fake
chat-completions server and a live dnd5e server): a model may send them as large as its token
bound allows, on every call of a turn."""

from __future__ import annotations

import json

import pytest

from apps.turns.agents import openai as openai_module
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


class CountingJson:
    """The json module, noting each text `loads` reads."""

    def __init__(self) -> None:
        self.read: list[str] = []

    def __getattr__(self, name: str):
        return getattr(json, name)

    def loads(self, text, *args, **kwargs):
        self.read.append(text)
        return json.loads(text, *args, **kwargs)


@pytest.mark.parametrize(
    "arguments",
    [json.dumps({"expression": "1d4"}), json.dumps(json.dumps({"expression": "1d4"}))],
    ids=["object", "encoded-twice"],
)
def test_a_call_s_arguments_are_read_once_for_its_echo_and_its_run(
    table, llm, monkeypatch, arguments
):
    counting = CountingJson()
    monkeypatch.setattr(openai_module, "json", counting)
    llm.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", arguments)])),
        (200, completion(content=FINAL)),
    ]
    output, caller = run(table, llm)
    assert (output.messages, [o.ok for o in caller.outcomes]) == (
        (AgentMessage("The die lands."),), [True]
    )  # fmt: skip
    assert caller.outcomes[0].structured["expression"] == "1d4"
    assert counting.read.count(arguments) == 1
    echoed = llm.requests[1]["messages"][-2]["tool_calls"][0]["function"]["arguments"]
    assert echoed == json.dumps({"expression": "1d4"})
