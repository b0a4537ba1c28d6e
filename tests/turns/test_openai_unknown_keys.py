"""The openai provider and a final answer with keys the contract does not know: the reason
quotes a few of them, each cut short, as it is stored in the turn's error a player reads."""

from __future__ import annotations

import json

import pytest

from apps.turns.errors import AgentOutputInvalid
from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db
HINT = "use messages, suggestions, gm_suggestions and suggestions_for"


def test_an_answer_with_thousands_of_long_unknown_keys_quotes_only_the_first_five(table, llm):
    unknown = {f"k{index:04d}" + "x" * 500: 1 for index in range(1500)}
    answer = json.dumps({"messages": [{"text": "The die lands."}], **unknown})
    llm.script = [(200, completion(content=answer)), (200, completion(content=answer))]
    with pytest.raises(AgentOutputInvalid) as caught:
        run(table, llm)
    quoted = ", ".join(f'"k{index:04d}{"x" * 59}"' for index in range(5))
    reason = f"unknown keys {quoted} and 1495 more; {HINT}"
    assert caught.value.details == {"reason": reason}
    # The player reads what was wrong, not the model's advice.
    assert (
        str(caught.value) == f"The agent's answer was invalid: unknown keys {quoted} and 1495 more"
    )
    assert llm.requests[1]["messages"][-1]["content"] == (
        f"Your answer was invalid: {reason}. Reply with only the JSON object described in the "
        "instructions."
    )


def test_a_few_unknown_keys_are_all_quoted_without_what_no_message_may_hold(table, llm):
    answer = json.dumps(
        {"messages": [{"text": "The die lands."}], "suggestion": [], "mood\u001b[2J": "x"}
    )
    llm.script = [(200, completion(content=answer)), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert llm.requests[1]["messages"][-1]["content"] == (
        f'Your answer was invalid: unknown keys "mood\ufffd[2J", "suggestion"; {HINT}. Reply '
        "with only the JSON object described in the instructions."
    )
