""" "Start a new scene called The Mill", "open a thread named Find the thief": "called" and
"named" introduce the title, they are no part of it (as for a clock)."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_polite_forms import _sent

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "sent"),
    [
        ("start a new scene called The Mill", ("scene_start", {"title": "The Mill"})),
        ("open scene named: The Drowned Chapel", ("scene_start", {"title": "The Drowned Chapel"})),
        ("open a thread named Find the thief", ("thread_open", {"title": "Find the thief"})),
        (
            "new thread called “Who lit the beacon?”",
            ("thread_open", {"title": "Who lit the beacon?"}),
        ),
    ],
)
def test_called_introduces_the_title(live_domains, gm, player, text, sent):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    calls, output = _sent(table, gm, text)
    assert [c for c in calls if c[0] != "story_get"] == [sent]
    assert output.declined is False
