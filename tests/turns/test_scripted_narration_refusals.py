"""What a GM's narration that the narration tools cannot apply is told: a command the GM's
action would be given is to be sent as an Action, and one everyone would see, narrated to the
GMs alone, is to be narrated to everyone (not "sent as a public action")."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def _refused(run, text: str) -> None:
    assert (run.texts, run.tools) == ([(text, "requester")], [])


def test_a_narrated_check_is_to_be_sent_as_an_action(table, gm):
    table.call(gm, "character_create", name="Ilsa", template="fighter")
    run = table.run(gm, "perception check for Ilsa", job_id="check", task="narration")
    _refused(run, "A GM's narration cannot make an ability check: send it as an Action.")


def test_a_story_phase_narrated_is_to_be_sent_as_an_action(story, gm):
    run = story.run(gm, "set phase lobby", job_id="lobby", task="narration")
    _refused(run, "A GM's narration cannot set the phase: send it as an Action.")


def test_a_public_story_change_narrated_to_the_gms_is_to_be_narrated_to_everyone(story, gm):
    run = story.run(
        gm, "create clock Ritual with 4 segments", job_id="secret clock", task="narration",
        trigger_audience="gm",
    )  # fmt: skip
    _refused(run, "Everyone sees it when you create a clock: send it as narration to everyone.")


def test_what_no_row_of_the_phase_offers_is_refused_as_before(table, gm):
    run = table.run(gm, "end combat", job_id="end", task="narration")
    _refused(run, "You cannot end combat in the play phase.")
