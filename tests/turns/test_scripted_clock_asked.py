""" "is the Doom clock full?", "how full is the Doom clock?": the story answers it (the
clock's segments, to the one who asks), not the oracle."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def story(story, gm):
    table = story  # the narrative table in play (tests/turns/conftest.py), and:
    table.run(gm, "create clock Doom with 6 segments", job_id="doom")
    table.run(gm, "advance clock Doom by 2", job_id="tick")
    return table


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("is the Doom clock full?", "No: the Doom clock is at 2/6."),
        ("Is the doom clock empty?", "No: the Doom clock is at 2/6."),
        ("how full is the Doom clock?", "The Doom clock is at 2/6."),
    ],
)
def test_a_clock_asked_about_is_read_from_the_story(story, text, answer):
    run = story.run(story.player, text, job_id="asked")
    assert run.texts == [(answer, "requester")]
    assert run.tools == ["story_get"]


def test_a_full_clock_is_said_to_be_full(story):
    story.run(story.gm, "advance clock Doom by 4", job_id="fill")
    assert story.run(story.player, "is the Doom clock done?", job_id="done").texts == [
        ("Yes: the Doom clock is at 6/6.", "requester")
    ]


def test_no_such_clock_names_the_clocks(story):
    assert story.run(story.player, "is the Ruin clock full?", job_id="ruin").texts == [
        ("There is no clock “Ruin”. Clocks: Doom.", "requester")
    ]
