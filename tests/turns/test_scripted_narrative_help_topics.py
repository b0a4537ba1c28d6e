"""Help asked about one part of the story ("help clocks"), against a live server."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


CLOCKS_GM = (
    "Clocks:\n"
    "- create clock <name> [with] N segments (2 to 12), e.g. create clock Doom 6\n"
    "- advance [clock] <name> [by N | twice]; by -1 winds it back\n"
    "- is the <name> clock full?, how full is the <name> clock?, how many clocks are there?"
)
CLOCKS_PLAYER = (
    "Clocks:\n"
    "- is the <name> clock full?, how full is the <name> clock?, how many clocks are there?\n"
    "- Only the GM creates and advances clocks."
)


def test_help_about_one_part_of_the_story_answers_with_its_commands(live_domains, gm, player):
    """ "help clocks" and "help oracle" were answered "I did not understand that"; each
    now gets the commands of that part, from the asker's seat, and nothing is written."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    assert table.run(gm, "help clocks", job_id="g-clocks").texts == [(CLOCKS_GM, "requester")]
    assert table.run(gm, "help with the clock", job_id="g-clock").texts == [
        (CLOCKS_GM, "requester")
    ]
    assert table.run(player, "help clocks", job_id="p-clocks").texts == [
        (CLOCKS_PLAYER, "requester")
    ]
    assert table.run(player, "help oracle", job_id="p-oracle").texts == [
        (
            "The oracle:\n"
            '- ask the oracle "<question>" [impossible|very unlikely|unlikely|even|likely|'
            "very likely|certain]; even unless you say\n"
            "- or a yes-or-no question with its odds in brackets, e.g. is the door locked? "
            "(likely)\n"
            '- e.g. ask the oracle "Is the door locked?" likely; it answers yes or no, '
            'with "and" or "but" when something more happens',
            "requester",
        )
    ]
    assert table.run(gm, "help scenes", job_id="g-scenes").texts == [
        (
            "Scenes:\n"
            "- open scene <title> (it ends the scene before it); end scene\n"
            "- describe, or look (or: what's happening?)",
            "requester",
        )
    ]
    assert table.run(player, "help threads", job_id="p-threads").texts == [
        (
            "Threads:\n"
            "- The threads are listed beside the room.\n"
            "- Only the GM opens and resolves threads.",
            "requester",
        )
    ]
    assert table.run(gm, "help facts", job_id="g-facts").texts == [
        (
            "Facts:\n- record fact <text> [gm only] (gm only: only you see it)\n- list facts",
            "requester",
        )
    ]
    asked = table.run(player, "How do I use the oracle?", job_id="p-use")
    assert asked.texts[0][0].startswith("The oracle:\n")
    # Only help: nothing is called, and the room is not told the asker was answered.
    for run in (table.run(gm, "help clocks", job_id="again"), asked):
        assert (run.tools, run.output.help_only) == ([], True)
    assert table.revision() == before
