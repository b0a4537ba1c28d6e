"""In narrative, "how many clocks are there?" marks a finished clock complete and lists the
running ones first, as the story panel does: a finished clock whose name was reused is not
read as a second running one."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_a_finished_clock_is_marked_complete_and_listed_after_the_running(story):
    gm = story.gm
    story.run(gm, "create clock Tide with 4 segments", job_id="tide")
    story.run(gm, "advance clock Tide by 4", job_id="fill")
    story.run(gm, "create clock Tide with 4 segments", job_id="tide again")
    story.run(gm, "create clock Doom with 6 segments", job_id="doom")
    story.run(gm, "advance clock Doom by 2", job_id="tick")
    before = story.revision()
    run = story.run(story.player, "how many clocks are there?", job_id="asked")
    said = "There are 3 clocks: Tide 0/4, Doom 2/6, Tide 4/4 (complete)."
    assert run.texts == [(said, "requester")]
    assert run.tools == ["story_get"]
    assert story.revision() == before


def test_a_lone_finished_clock_is_marked_complete(story):
    story.run(story.gm, "create clock Doom with 2 segments", job_id="doom")
    story.run(story.gm, "advance clock Doom twice", job_id="fill")
    run = story.run(story.player, "How many clocks?", job_id="asked")
    assert run.texts == [("There is 1 clock: Doom 2/2 (complete).", "requester")]
