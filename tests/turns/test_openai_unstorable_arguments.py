"""The openai provider and tool arguments holding what the journal cannot store: NUL
(PostgreSQL's jsonb refuses `\\u0000`) or half of a surrogate pair (no UTF-8 encoding exists;
jsonb refuses it and the domain server's connection breaks on it)."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion, tool_call
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("arguments", "character"),
    [
        ('{"expression": "1d4", "label": "a\\u0000b"}', "U+0000"),
        ('{"expression": "1d4", "label": "a\\ud800b"}', "U+D800"),
        ('{"expression": "1d4", "lab\\udfffel": "x"}', "U+DFFF"),
        ('{"expression": "1d4", "label": ["a", {"b": "\\u0000"}]}', "U+0000"),
    ],
)
def test_arguments_holding_text_no_journal_can_store_are_refused_to_the_model(
    table, llm, arguments, character
):
    before = table.revision()
    llm.script = [
        (200, completion(tool_calls=[tool_call("c1", "dice_roll", arguments)])),
        (200, completion(content=FINAL)),
    ]
    output, caller = run(table, llm)
    assert (output.messages, output.tool_calls) == ((AgentMessage("The die lands."),), 1)
    # Neither sent nor journaled.
    assert (caller.outcomes, table.revision()) == ([], before)
    assert json.loads(llm.requests[1]["messages"][-1]["content"]) == {
        "error": {
            "code": "invalid_arguments",
            "message": f"the arguments hold a character no tool may be given ({character})",
        }
    }
