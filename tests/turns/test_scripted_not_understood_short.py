"""Text no command takes is answered briefly: that it was not understood, up to three of the
closest commands this seat may use, and where the whole list is; only "help" gives the list."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import DND_PLAYER_HELP

pytestmark = pytest.mark.django_db

ONLY_HELP = "I did not understand that. Say “help” for everything I understand."


def test_an_unknown_action_is_answered_in_one_line_not_the_whole_list(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    before = table.revision()
    # ("I cast fire bolt at the orc" is an attack now: test_scripted_cast_and_throw.)
    for text in ("I sing a sea shanty", "I sing a sea shanty", "dance a jig"):
        run = table.run(player, text, job_id=text)
        assert run.texts == [(ONLY_HELP, "requester")], text
        assert run.output.help_only is True
        assert run.output.suggestions == ()
        assert run.tools == []
    # "help" itself still lists everything.
    assert table.run(player, "help", job_id="help").texts == [(DND_PLAYER_HELP, "requester")]
    assert table.revision() == before


def test_close_commands_are_suggested_pressable_only_when_complete(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    run = table.run(player, "Friends, move to 2,0", job_id="friends")
    assert run.texts == [
        (
            "I did not understand that. Closest: move to X,Y. "
            "Say “help” for everything I understand.",
            "requester",
        )
    ]
    assert run.output.suggestions == ()
    run = table.run(player, "stand tall", job_id="stand")
    assert run.texts == [
        (
            "I did not understand that. Closest: stand up. Say “help” for everything I understand.",
            "requester",
        )
    ]
    assert run.output.suggestions == ("stand up",)


def test_a_player_is_not_offered_the_gms_commands(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    assert table.run(gm, "advnce the plot", job_id="gm").texts == [
        (
            "I did not understand that. Closest: advance clock <name> [by N]. "
            "Say “help” for everything I understand.",
            "requester",
        )
    ]
    assert table.run(player, "advnce the plot", job_id="player").texts == [(ONLY_HELP, "requester")]
