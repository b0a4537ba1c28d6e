"""Resolving a thread that is already resolved is told so, whether or not another thread is
open; a name that fits no thread, with none open, is told there is none to resolve."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

ALREADY = ("That cannot happen: the thread “The Heist” is already resolved.", "requester")


@pytest.fixture
def story(story, gm):
    table = story  # the narrative table in play (tests/turns/conftest.py), and:
    table.run(gm, "open thread The Heist", job_id="open")
    table.run(gm, "resolve thread The Heist: they got away", job_id="resolve")
    return table


@pytest.mark.parametrize(
    "text", ["resolve thread The Heist", "close the heist thread", "resolve thread heist"]
)
def test_a_resolved_thread_with_none_open_is_said_to_be_resolved(story, text):
    before = story.revision()
    assert story.run(story.gm, text, job_id=text).texts == [ALREADY]
    assert story.revision() == before
    threads = story.call(story.gm, "story_get").structured["threads"]
    assert [(t["title"], t["status"], t["resolution"]) for t in threads] == [
        ("The Heist", "resolved", "they got away")
    ]


def test_a_resolved_thread_beside_an_open_one_is_said_to_be_resolved(story):
    story.run(story.gm, "open thread The Debt", job_id="debt")
    assert story.run(story.gm, "resolve thread The Heist", job_id="again").texts == [ALREADY]


def test_a_name_of_no_thread_with_none_open_is_told_none_is_open(story):
    assert story.run(story.gm, "resolve thread The Dragon", job_id="dragon").texts == [
        ("There is no open thread to resolve.", "requester")
    ]
