"""An HTTP 200 carrying an error whose code, type or status is of an odd shape (a list, an
object, a digit no number is written with) against a real local fake chat-completions server
and a live dnd5e server: classed by what it does say, never a crash the player is told to
report to the operators."""

from __future__ import annotations

import pytest

from apps.turns.errors import classify_error
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db


def classified(table, llm, error):
    llm.script = [(200, {"error": error})]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    found = classify_error(caught.value)
    return found.code, found.retryable


@pytest.mark.parametrize(
    "error",
    [
        {"message": "upstream failed", "code": ["rate_limit_exceeded"], "type": "server_error"},
        {"message": "upstream failed", "code": {"name": "x"}, "type": "server_error"},
        {"message": "upstream failed", "status": "\u00b2", "code": "server_error"},
    ],
    ids=["list-code", "object-code", "superscript-status"],
)
def test_an_odd_field_beside_a_passing_code_is_still_passing(table, llm, error):
    assert classified(table, llm, error) == ("agent_unavailable", True)


def test_an_error_naming_nothing_readable_is_no_chat_completion(table, llm):
    error = {"message": "?", "code": {"id": 7}, "type": ["a"], "status": "\u00b9\u00b2"}
    assert classified(table, llm, error) == ("agent_protocol_error", False)
