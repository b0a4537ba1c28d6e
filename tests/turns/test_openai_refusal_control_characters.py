"""A refusal quoted in the turn's error, which the player reads (a real local fake
chat-completions server and a live dnd5e server): what no shown text may hold (control
characters but line feed and tab, NUL, half a surrogate pair) is quoted as U+FFFD, as in a
character id the answer names."""

from __future__ import annotations

import pytest

from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import run

pytestmark = pytest.mark.django_db


def refusal(text: str) -> dict:
    body = completion(content=None)
    body["choices"][0]["message"]["refusal"] = text
    return body


@pytest.mark.parametrize(
    ("refused", "quoted"),
    [
        ("No\u001b[31m way\u001b[0m.", "No\ufffd[31m way\ufffd[0m."),
        ("No\u009b way\u007f.", "No\ufffd way\ufffd."),
        ("No\rway\u0007\u0085.", "No\ufffdway\ufffd\ufffd."),
        ("No\ud800 way\u0000.", "No\ufffd way\ufffd."),
    ],
    ids=["escape", "csi-delete", "return-bell-next-line", "surrogate-nul"],
)
def test_a_quoted_refusal_shows_control_characters_as_replacement_characters(
    table, llm, refused, quoted
):
    llm.script = [(200, refusal(refused)), (200, refusal(refused))]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    assert caught.value.details == {
        "reason": f'the answer is a refusal ("{quoted}"); if the player\'s request cannot be '
        "done, say so in the messages"
    }


def test_line_feeds_and_tabs_in_a_quoted_refusal_stay_as_json_spells_them(table, llm):
    llm.script = [(200, refusal("No.\n\tNever.")), (200, refusal("No.\n\tNever."))]
    with pytest.raises(Exception) as caught:
        run(table, llm)
    assert caught.value.details == {
        "reason": 'the answer is a refusal ("No.\\n\\tNever."); if the player\'s request cannot '
        "be done, say so in the messages"
    }
