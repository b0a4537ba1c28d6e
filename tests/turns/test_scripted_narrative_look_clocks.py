"""In narrative, the scene description ("look") lists the clocks as the story panel and "how many
clocks" do: running clocks first, each group in the order made, and a finished one marked
"(complete)", so a finished clock whose name was reused is not read as a second running one."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_look_lists_running_clocks_first_and_marks_a_finished_one_complete(story):
    gm = story.gm
    story.run(gm, "create clock Tide with 4 segments", job_id="tide")
    story.run(gm, "advance clock Tide by 4", job_id="fill")
    story.run(gm, "create clock Doom with 6 segments", job_id="doom")
    story.run(gm, "create clock Tide with 4 segments", job_id="tide again")
    story.run(gm, "advance clock Doom by 2", job_id="tick")
    before = story.revision()
    run = story.run(story.player, "look", job_id="look")
    said = "No scene is set. Clocks: Doom 2/6, Tide 0/4, Tide 4/4 (complete)."
    assert run.texts == [(said, "trigger")]
    assert run.tools == ["story_get"]
    assert story.revision() == before


def test_look_marks_a_lone_finished_clock_complete(story):
    story.run(story.gm, "create clock Doom with 2 segments", job_id="doom")
    story.run(story.gm, "advance clock Doom twice", job_id="fill")
    run = story.run(story.player, "look", job_id="look")
    assert run.texts == [("No scene is set. Clocks: Doom 2/2 (complete).", "trigger")]
