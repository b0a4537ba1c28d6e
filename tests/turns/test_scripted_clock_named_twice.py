"""A clock whose own name ends in a tick word ("Knock Twice", "Ring Again") is that clock:
an exact name that exists wins over reading its last word as how often to tick."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_narrative import _writes

pytestmark = pytest.mark.django_db


@pytest.fixture
def story(story, gm):
    table = story  # the narrative table in play (tests/turns/conftest.py), and:
    table.run(gm, "create clock Knock with 6 segments", job_id="knock")
    table.run(gm, "create clock Knock Twice with 6 segments", job_id="knock-twice")
    table.run(gm, "create clock Ring Again with 4 segments", job_id="ring-again")
    return table


def _clock_id(table, name: str) -> str:
    clocks = table.call(table.gm, "story_get").structured["clocks"]
    return next(c["id"] for c in clocks if c["name"] == name)


@pytest.mark.parametrize(
    ("text", "name", "ticks"),
    [
        ("advance clock Knock Twice", "Knock Twice", 1),
        ("advance the Knock Twice clock", "Knock Twice", 1),
        ("tick Knock Twice", "Knock Twice", 1),
        ("advance clock Ring Again", "Ring Again", 1),
        ("advance Ring Again.", "Ring Again", 1),
        # The name said whole, then how often: that clock, that far.
        ("advance clock Knock Twice twice", "Knock Twice", 2),
        ("advance clock Knock Twice by 3", "Knock Twice", 3),
        # No clock is named "Knock Thrice": the tick word is read as such.
        ("advance clock Knock thrice", "Knock", 3),
    ],
)
def test_a_clock_named_with_a_tick_word_is_that_clock(story, text, name, ticks):
    assert _writes(story, story.gm, text) == [
        ("clock_advance", {"clock_id": _clock_id(story, name), "ticks": ticks})
    ]
