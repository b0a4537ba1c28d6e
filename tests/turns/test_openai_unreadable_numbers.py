"""Numbers in a model's answer that Python's JSON reader will not read, whole numbers of more
digits than its limit (a real local fake chat-completions server and a live dnd5e server): a
call's arguments holding one are refused to the model, which may correct them, and a final
answer holding one is corrected as any invalid answer, rather than failing the turn
unexpectedly."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db
LONG = "1" * 5000  # past the 4300 digits Python reads into an int


def test_arguments_holding_a_number_too_long_to_read_are_refused_to_the_model(table, llm):
    before = table.revision()
    calls = [tool_call("c1", "dice_roll", '{"expression": "1d4", "label": ' + LONG + "}")]
    llm.script = [(200, completion(tool_calls=calls)), (200, completion(content=FINAL))]
    output, caller = run(table, llm)
    assert (output.messages, caller.outcomes, table.revision()) == (
        (AgentMessage("The die lands."),), [], before
    )  # fmt: skip
    assert json.loads(llm.requests[1]["messages"][-1]["content"]) == {
        "error": {
            "code": "invalid_arguments",
            "message": "the arguments hold a number too long to read (at most 4300 digits)",
        }
    }


def test_a_final_answer_holding_a_number_too_long_to_read_is_corrected(table, llm):
    answer = '{"messages": [{"text": "The die lands.", "audience": "trigger"}], "n": ' + LONG
    llm.script = [(200, completion(content=answer + "}")), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-1] == {
        "role": "user",
        "content": "Your answer was invalid: the answer holds a number too long to read (at "
        "most 4300 digits). Reply with only the JSON object described in the instructions.",
    }
