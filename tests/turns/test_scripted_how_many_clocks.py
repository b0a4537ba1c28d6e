"""In narrative, "how many clocks are there?" is answered from the story, to the asker,
rather than sent to the GM or the oracle."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "text", ["how many clocks are there?", "How many clocks?", "how many clocks are running"]
)
def test_how_many_clocks_is_answered_from_the_story(story, text):
    story.run(story.gm, "create clock Doom with 6 segments", job_id="doom")
    story.run(story.gm, "create clock Dawn with 4 segments", job_id="dawn")
    story.run(story.gm, "advance clock Doom", job_id="tick")
    before = story.revision()
    run = story.run(story.player, text, job_id=text)
    assert run.texts == [("There are 2 clocks: Doom 1/6, Dawn 0/4.", "requester")]
    assert run.tools == ["story_get"]
    assert story.revision() == before


def test_how_many_clocks_with_one_or_none(story):
    run = story.run(story.player, "how many clocks are there?", job_id="none")
    assert run.texts == [("There are no clocks.", "requester")]
    story.run(story.gm, "create clock Doom with 6 segments", job_id="doom")
    run = story.run(story.player, "how many clocks are there?", job_id="one")
    assert run.texts == [("There is 1 clock: Doom 0/6.", "requester")]
