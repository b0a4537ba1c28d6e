"""The openai provider and text the database cannot store: a NUL character (PostgreSQL's text
and jsonb refuse it) or half of a surrogate pair (no UTF-8 encoding exists for it). JSON can
spell both (`\\u0000`, `\\ud800`), so a model can send them."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (
            {"messages": [{"text": "The die\u0000 lands."}]},
            "messages[0].text holds a character no message may hold (U+0000)",
        ),
        (
            {"messages": [{"text": "The die lands \ud83d."}]},
            "messages[0].text holds a character no message may hold (U+D83D)",
        ),
        (
            {"messages": [{"text": "The die lands."}], "suggestions": ["roll", "again\u0000"]},
            "suggestions[1] holds a character no message may hold (U+0000)",
        ),
    ],
)
def test_an_answer_holding_text_no_database_can_store_is_corrected(table, llm, answer, reason):
    llm.script = [(200, completion(content=json.dumps(answer))), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert llm.requests[1]["messages"][-1] == {
        "role": "user",
        "content": f"Your answer was invalid: {reason}. Reply with only the JSON object "
        "described in the instructions.",
    }


def test_a_refusal_quoted_in_the_turns_error_holds_only_storable_text(table, llm):
    body = completion(content=None)
    body["choices"][0]["message"]["refusal"] = "No\ud800 way\u0000."
    llm.script = [(200, body), (200, body)]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    assert caught.value.details == {
        "reason": 'the answer is a refusal ("No\ufffd way\ufffd."); if the player\'s request '
        "cannot be done, say so in the messages"
    }
