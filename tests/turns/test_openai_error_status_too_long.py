"""An error whose status or code is decimal text of more digits than Python reads as a whole
number (a real local fake chat-completions server and a live dnd5e server): it names no
status, and the error is classed by what else it says, never a crash the player is told to
report to the operators."""

from __future__ import annotations

import sys

import pytest

from apps.turns.errors import classify_error
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db

UNREADABLE = "4" + "0" * sys.get_int_max_str_digits()


def classified(table, llm, error):
    llm.script = [(200, {"error": error})]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    found = classify_error(caught.value)
    return found.code, found.retryable


def test_an_unreadable_status_beside_a_passing_code_is_still_passing(table, llm):
    error = {"message": "upstream failed", "status": UNREADABLE, "code": "server_error"}
    assert classified(table, llm, error) == ("agent_unavailable", True)


def test_an_unreadable_code_naming_nothing_else_is_no_chat_completion(table, llm):
    error = {"message": "?", "code": UNREADABLE}
    assert classified(table, llm, error) == ("agent_protocol_error", False)
