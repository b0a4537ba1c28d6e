"""An answer that starts with a UTF-8 byte order mark (a real local fake chat-completions
server and a live dnd5e server): JSON read from bytes skips it, and so must the reading of
an answer whose bytes are not all UTF-8, or a stray byte failed the turn as no chat
completion."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.test_openai_agent import run
from tests.turns.test_openai_broken_utf8 import MARK, answer, raw_answers

pytestmark = pytest.mark.django_db
BOM = b"\xef\xbb\xbf"


@pytest.mark.parametrize("stray", [b"", b"\xef"], ids=["utf8", "stray-byte"])
def test_an_answer_after_a_byte_order_mark_is_read(table, llm, stray):
    text = {"messages": [{"text": f"The d{MARK}e lands.", "audience": "trigger"}]}
    raw_answers(llm, [BOM + answer(json.dumps(text, ensure_ascii=False), stray)])
    output, _caller = run(table, llm)
    shown = "\ufffd" if stray else ""
    assert output.messages == (AgentMessage(f"The d{shown}e lands."),)
