"""A turn narrated from its journal after it ended (`narrate_only`) offers the model no tool
calls from its first request (a real local fake chat-completions server and a live dnd5e
server). A server that ignores tool_choice "none" is asked once more offering no tools, and
the model is told why: the turn is over, not a limit of calls it never reached."""

from __future__ import annotations

import dataclasses

import pytest

from apps.turns.errors import AgentToolLimit
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, agent

pytestmark = pytest.mark.django_db


def test_a_stray_call_while_narrating_an_ended_turn_is_told_the_turn_is_over(table, llm):
    before = table.revision()
    turn = table.context(table.player, "roll a d20", job_id="j1")
    turn = dataclasses.replace(turn, narrate_only=True)
    stray = completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])
    llm.script = [(200, stray), (200, completion(content=FINAL))]
    output = agent(llm).run_turn(turn, table.caller(table.player, turn))
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 0)
    assert table.revision() == before
    assert llm.requests[0]["tool_choice"] == "none"
    assert "tools" not in llm.requests[1]
    assert llm.requests[1]["messages"][-1] == {
        "role": "user",
        "content": "The turn is over and no tools are offered any more. Reply with only the "
        "JSON object described in the instructions.",
    }


def test_a_model_calling_tools_again_while_narrating_an_ended_turn_fails_saying_the_turn_was_over(
    table, llm
):
    turn = table.context(table.player, "roll a d20", job_id="j1")
    turn = dataclasses.replace(turn, narrate_only=True)
    stray = completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])
    llm.script = [(200, stray), (200, stray)]
    with pytest.raises(AgentToolLimit) as caught:
        agent(llm).run_turn(turn, table.caller(table.player, turn))
    assert caught.value.message == "The model asked for tools after the turn was over."
    assert len(llm.requests) == 2
