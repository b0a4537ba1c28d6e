"""The story's threads, read as a table asks for them ("show the threads", "what threads are
open?"), against a live server: public story, so anyone may read them, nothing written."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def test_a_player_reads_the_open_threads_in_the_look_around(live_domains, gm, player):
    """ "show the threads" told a player only the GM may open or resolve one, "what threads
    are open?" that it was for the GM or the oracle to judge, and the look around left the
    threads out though the room lists them to everyone."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "open scene The Docks", job_id="scene")
    table.run(gm, "open thread Who lit the beacon?", job_id="t1")
    table.run(gm, "open thread The Heist", job_id="t2")
    table.run(gm, "resolve thread the heist: they got away", job_id="t3")
    before = table.revision()
    look = "Scene: The Docks. Open threads: Who lit the beacon?"
    for text in ("show the threads", "list threads", "what threads are open?", "look"):
        run = table.run(player, text, job_id=text)
        assert run.texts == [(look, "trigger")], text
        assert run.tools == ["story_get"], text
    table.run(gm, "resolve thread who lit: the keeper did", job_id="t4")
    assert table.run(player, "what threads are there?", job_id="none").texts == [
        ("Scene: The Docks.", "trigger")
    ]
    assert table.revision() == before + 1
