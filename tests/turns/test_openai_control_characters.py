"""The openai provider and control characters in the text players are shown (a real local fake
chat-completions server and a live dnd5e server): besides a line feed and a tab, a message or
suggestion holding one (a bell, an escape sequence, a carriage return outside a Windows line
ending) is sent back to be corrected, as one holding NUL is."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run
from tests.turns.test_openai_suggestions_for import answer, correction
from tests.turns.test_openai_suggestions_for import run as run_for_party

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (
            {"messages": [{"text": "The die\u0007 lands."}]},
            "messages[0].text holds a character no message may hold (U+0007)",
        ),
        (
            {"messages": [{"text": "The \u001b[31mdie\u001b[0m lands."}]},
            "messages[0].text holds a character no message may hold (U+001B)",
        ),
        (
            {"messages": [{"text": "The die lands.\rAgain."}]},
            "messages[0].text holds a character no message may hold (U+000D)",
        ),
        (
            {"messages": [{"text": "The die lands."}, {"text": "Rub\u007fout."}]},
            "messages[1].text holds a character no message may hold (U+007F)",
        ),
        (
            {"messages": [{"text": "The die lands."}], "suggestions": ["roll \u009b again"]},
            "suggestions[0] holds a character no message may hold (U+009B)",
        ),
        (
            {"messages": [{"text": "The die lands."}], "gm_suggestions": ["flee\u0085"]},
            "gm_suggestions[0] holds a character no message may hold (U+0085)",
        ),
    ],
)
def test_an_answer_holding_a_control_character_is_corrected(table, llm, answer, reason):
    llm.script = [(200, completion(content=json.dumps(answer))), (200, completion(content=FINAL))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.", "trigger"),)
    assert llm.requests[1]["messages"][-1] == {
        "role": "user",
        "content": f"Your answer was invalid: {reason}. Reply with only the JSON object "
        "described in the instructions.",
    }


def test_line_feeds_and_tabs_are_kept(table, llm):
    answer = {"messages": [{"text": "The die lands.\n\tA four."}], "suggestions": ["roll\tagain"]}
    llm.script = [(200, completion(content=json.dumps(answer)))]
    output, _caller = run(table, llm)
    assert (output.messages, output.suggestions) == (
        (AgentMessage("The die lands.\n\tA four.", "trigger"),), ("roll\tagain",)
    )  # fmt: skip
    assert len(llm.requests) == 1


def test_windows_line_endings_in_a_message_are_read_as_line_feeds(table, llm):
    answer = {"messages": [{"text": "The die lands.\r\nA four."}]}
    llm.script = [(200, completion(content=json.dumps(answer)))]
    output, _caller = run(table, llm)
    assert output.messages == (AgentMessage("The die lands.\nA four.", "trigger"),)
    assert len(llm.requests) == 1


@pytest.mark.parametrize(
    ("wanted", "reason"),
    [
        (
            {"pc-2": ["flee\u0007"]},
            'suggestions_for["pc-2"][0] holds a character no message may hold (U+0007)',
        ),
        (
            {"pc-\u009b9": ["attack"]},
            'suggestions_for names "pc-\ufffd9", which is no player character of this campaign; '
            "use an id the instructions list",
        ),
    ],
)
def test_suggestions_for_a_character_follow_the_same_rule(table, llm, wanted, reason):
    llm.script = [
        (200, completion(content=answer(suggestions_for=wanted))),
        (200, completion(content=FINAL)),
    ]
    assert run_for_party(table, llm).suggestions_for == {}
    assert correction(llm) == (
        f"Your answer was invalid: {reason}. Reply with only the JSON object described in the "
        "instructions."
    )
