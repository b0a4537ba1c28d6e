"""An endpoint that parses the model's tool calls itself and refuses the whole answer when it
cannot (Groq's HTTP 400 `tool_use_failed`, with the model's words in `failed_generation`; a
real local fake chat-completions server and a live dnd5e server). It is the model's slip, not
a wrong setting: a final JSON answer the endpoint took for a call is read, anything else gets
the correction round an invalid answer gets, instead of failing the turn as agent_rejected
('an operator must check the settings')."""

from __future__ import annotations

import pytest

from apps.turns.errors import AgentOutputInvalid, classify_error
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db
SLIP = '<function=dice_roll>{"expression": "1d20"}</function>'
REASON = (
    "the endpoint could not read the model's tool call; call a tool with JSON arguments as its "
    "schema says, or give only the final JSON answer"
)


def unread_call(generation):
    return (
        400,
        {
            "error": {
                "message": "Failed to call a function. Please adjust your prompt. See "
                "'failed_generation' for more details.",
                "type": "invalid_request_error",
                "code": "tool_use_failed",
                "failed_generation": generation,
            }
        },
    )


def test_a_final_answer_the_endpoint_took_for_a_call_is_read(table, llm):
    llm.script = [unread_call(FINAL)]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert len(llm.requests) == 1


def test_a_call_the_endpoint_could_not_read_is_corrected(table, llm):
    llm.script = [
        unread_call(SLIP),
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", {"expression": "1d20"})])),
        (200, completion(content=FINAL)),
    ]
    output, caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert [outcome.ok for outcome in caller.outcomes] == [True]
    assert llm.requests[1]["messages"][2:] == [
        {"role": "assistant", "content": SLIP},
        {
            "role": "user",
            "content": f"Your answer was invalid: {REASON}. Reply with only the JSON object "
            "described in the instructions.",
        },
    ]


@pytest.mark.parametrize("generation", [SLIP, None], ids=["words", "none"])
def test_a_second_unread_call_fails_the_turn_as_invalid_output(table, llm, generation):
    llm.script = [unread_call(generation), unread_call(generation)]
    with pytest.raises(AgentOutputInvalid) as caught:
        run(table, llm)
    assert caught.value.details == {"reason": REASON}
    assert classify_error(caught.value).code == "agent_output_invalid"
    assert llm.requests[1]["messages"][2]["content"] == (SLIP if generation else "")
