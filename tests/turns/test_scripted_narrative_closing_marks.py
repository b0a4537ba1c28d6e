"""Narrative lines that end in a sentence's full stop: the stop after a number of ticks or a
roll's label is the sentence's, not part of a clock's name or the label (a name or label
keeps its own "!", "?" and ellipsis)."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_narrative import _writes

pytestmark = pytest.mark.django_db


@pytest.fixture
def story(story, gm):
    table = story  # the narrative table in play (tests/turns/conftest.py), and:
    table.run(gm, "create clock Doom with 6 segments", job_id="doom")
    return table


@pytest.mark.parametrize(
    "text",
    ["advance clock Doom by 2.", "advance the Doom clock by 2.", "tick clock doom by 2 segments."],
)
def test_a_full_stop_after_the_ticks_is_the_sentences(story, text):
    clock = story.call(story.gm, "story_get").structured["clocks"][0]
    assert _writes(story, story.gm, text) == [
        ("clock_advance", {"clock_id": clock["id"], "ticks": 2})
    ]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("roll 2d6 for damage.", "damage"),
        ("roll 1d20 for luck!", "luck!"),
        ("roll 1d6 for the lamp...", "the lamp..."),
        ("roll 1d6 for who goes first?", "who goes first?"),
    ],
)
def test_a_full_stop_after_a_rolls_label_is_the_sentences(story, text, label):
    assert _writes(story, story.player, text) == [
        ("dice_roll", {"expression": text.split()[1], "label": label})
    ]
