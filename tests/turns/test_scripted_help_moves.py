"""The help list's moves are each a whole command: "(10 ft east)" after "move 2 squares
north" read as if it explained it."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import _parse, dnd_move_by, help_text

MOVES = "- move to X,Y, move to <target>, move 2 squares north or move 10 feet east; "


@pytest.mark.parametrize("gm", [True, False])
def test_the_help_list_names_each_move_as_a_command_that_is_understood(gm):
    assert MOVES in help_text("dnd5e", gm=gm)
    for example in ("move 2 squares north", "move 10 feet east"):
        intent, _match = _parse("dnd5e", example)
        assert intent is not None and intent.handler is dnd_move_by, example
