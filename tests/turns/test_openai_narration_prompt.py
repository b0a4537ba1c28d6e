"""A GM's narration turn tells the model that the narration is already in the room: it applies
what the narration says with the tools and tells the GM what the rules did, adding no story;
a narration that needs nothing of the rules may be answered with no message."""

from __future__ import annotations

import pytest

from apps.turns.agents.openai import system_prompt
from apps.turns.types import TurnContext

NARRATION = (
    "The message is the GM's narration, already shown to its audience as written. Apply with "
    "the tools only what it says happens (damage, conditions, a rest, a monster's action) and "
    "add no story of your own. If you called tools, answer with one short message to the 'gm' "
    'audience saying what the rules did; if nothing in it needed the rules, answer {"messages": '
    "[]}.\n"
)


def _turn(task: str) -> TurnContext:
    return TurnContext(
        job_id="j1", system_id="dnd5e", phase="play", role="gm", task=task,
        text="we take a long rest", tools=(), trigger_audience="public",
    )  # fmt: skip


@pytest.mark.parametrize(("task", "told"), [("narration", 1), ("action", 0)])
def test_only_a_narration_turn_is_told_it_applies_the_gms_narration(task, told):
    assert system_prompt(_turn(task)).count(NARRATION) == told


@pytest.mark.parametrize(("task", "least"), [("narration", 0), ("action", 1)])
def test_only_a_narration_turn_is_told_it_may_answer_with_no_message(task, least):
    assert (
        system_prompt(_turn(task)).count(f"{least} to 4 messages of at most 4000 characters") == 1
    )
