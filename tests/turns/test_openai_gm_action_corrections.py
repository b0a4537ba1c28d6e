"""The corrections a GM's own action sends the model (a real local fake chat-completions server
and a live dnd5e server) speak of the GM's message and request, not of a player's: the GM wrote
it, and no player is waiting on it."""

from __future__ import annotations

import json

import pytest

from apps.turns.errors import AgentOutputInvalid
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run
from tests.turns.test_openai_endpoint_answers import refusal

pytestmark = pytest.mark.django_db


def test_a_gms_action_answered_wider_than_it_was_told_is_named_the_gms_message(table, llm):
    wide = json.dumps({"messages": [{"text": "The die lands.", "audience": "public"}]})
    llm.script = [(200, completion(content=wide)), (200, completion(content=FINAL))]
    output, _caller = run(table, llm, user=table.gm, trigger="gm")
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-1]["content"] == (
        "Your answer was invalid: messages[0].audience 'public' is wider than the GM's "
        "message ('gm'); use 'trigger' or 'gm'. Reply with only the JSON object described "
        "in the instructions."
    )


def test_a_refused_gms_action_is_told_to_say_the_gms_request_cannot_be_done(table, llm):
    llm.script = [(200, refusal("No.")), (200, completion(content=FINAL))]
    output, _caller = run(table, llm, user=table.gm, trigger="gm")
    assert output.messages == (AgentMessage("The die lands."),)
    assert llm.requests[1]["messages"][-1]["content"] == (
        'Your answer was invalid: the answer is a refusal ("No."); if the GM\'s request '
        "cannot be done, say so in the messages. Reply with only the JSON object described "
        "in the instructions."
    )


def test_a_gms_action_refused_twice_keeps_the_gms_request_in_the_operators_details(table, llm):
    llm.script = [(200, refusal("No.")), (200, refusal("Still no."))]
    with pytest.raises(AgentOutputInvalid) as caught:
        run(table, llm, user=table.gm, trigger="gm")
    assert caught.value.details == {
        "reason": 'the answer is a refusal ("Still no."); if the GM\'s request cannot be '
        "done, say so in the messages"
    }
