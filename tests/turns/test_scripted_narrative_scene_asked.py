"""In narrative, "what scene are we in?" is a look at the scene, not a question for the GM or
the oracle to judge."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.conftest import make_table

ASKED = [
    "What scene are we in?",
    "what's the scene?",
    "which scene is this?",
    "whats the scene",
    "what is the current scene?",
    "Which scene are we in now?",
    "what scene is it?",
]


@pytest.mark.parametrize("text", ASKED)
def test_asking_which_scene_reads_as_a_look(text):
    intent, _match = s._parse("narrative", text)
    assert intent is not None
    assert intent.handler is s.nar_describe


@pytest.mark.django_db
def test_asking_which_scene_is_answered_like_look(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "open scene The Docks", job_id="scene")
    before = table.revision()
    look = table.run(player, "look", job_id="look")
    assert look.texts == [("Scene: The Docks.", "trigger")]
    for text in ASKED:
        run = table.run(player, text, job_id=text)
        assert (run.texts, run.tools) == (look.texts, ["story_get"]), text
    assert table.revision() == before
