"""The openai provider's suggestions for the GMs, who play the monsters: a player's action that
hands the turn to a monster may offer the GMs its next actions, as the scripted agent does."""

from __future__ import annotations

import json

import pytest

from apps.turns.types import AgentMessage
from tests.turns.fake_llm import completion
from tests.turns.test_openai_agent import FINAL, run

pytestmark = pytest.mark.django_db


def answer(**extra) -> str:
    return json.dumps({"messages": [{"text": "The goblin is up."}], **extra})


@pytest.mark.parametrize("trigger", ["public", "private"])
def test_a_players_turn_may_offer_the_gms_their_monsters_next_actions(table, llm, trigger):
    content = answer(suggestions=["wait"], gm_suggestions=[" attack Ayla ", "end turn"])
    llm.script = [(200, completion(content=content))]
    output, _caller = run(table, llm, trigger=trigger)
    assert (output.messages, output.suggestions, output.gm_suggestions, output.suggestions_for) == (
        (AgentMessage("The goblin is up."),),
        ("wait",),
        ("attack Ayla", "end turn"),
        {},
    )
    assert "gm_suggestions" in llm.requests[0]["messages"][0]["content"]


@pytest.mark.parametrize(
    ("gm_suggestions", "reason"),
    [
        (
            ["a"] * 5,
            "gm_suggestions must be a list of at most 4 non-empty strings of at most 200 "
            "characters",
        ),  # fmt: skip
        (
            "attack",
            "gm_suggestions must be a list of at most 4 non-empty strings of at most 200 "
            "characters",
        ),  # fmt: skip
        (
            ["x" * 201],
            "gm_suggestions must be a list of at most 4 non-empty strings of at most "
            "200 characters",
        ),  # fmt: skip
        (["attack\u0000"], "gm_suggestions[0] holds a character no message may hold (U+0000)"),
    ],
)
def test_invalid_gm_suggestions_are_sent_back_to_the_model(table, llm, gm_suggestions, reason):
    llm.script = [
        (200, completion(content=answer(gm_suggestions=gm_suggestions))),
        (200, completion(content=FINAL)),
    ]
    output, _caller = run(table, llm)
    assert (output.messages, output.gm_suggestions) == ((AgentMessage("The die lands."),), ())
    assert llm.requests[1]["messages"][-1] == {
        "role": "user",
        "content": f"Your answer was invalid: {reason}. Reply with only the JSON object "
        "described in the instructions.",
    }
