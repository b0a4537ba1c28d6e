"""In narrative, "reset clock doom" or "delete clock doom" was offered "create clock" as the
closest command: clocks are not deleted, and "advance <name> by -N" winds one back, which
only the GM may do."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.conftest import make_table

ASKED = [
    ("reset clock doom", "doom"),
    ("delete clock Doom", "Doom"),
    ("Delete the Doom clock", "Doom"),
    ("remove clock doom", "doom"),
    ("clear the clock Doom", "Doom"),
]


@pytest.mark.parametrize(("text", "name"), ASKED)
def test_deleting_a_clock_is_read(text, name):
    intent, match = s._parse("narrative", text)
    assert intent is not None
    assert intent.handler is s.nar_clock_not_deleted
    assert match["name"] == name


@pytest.mark.django_db
def test_the_gm_is_told_how_to_wind_a_clock_back(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "create clock Doom with 6 segments", job_id="doom")
    table.run(gm, "advance clock Doom by 3", job_id="tick")
    before = table.revision()
    for text, name in ASKED:
        run = table.run(gm, text, job_id=text)
        assert run.texts == [
            (
                f"Clocks are not deleted: “advance {name} by -N” winds one back N segments.",
                "requester",
            )
        ], text
        assert run.tools == [], text
    assert table.revision() == before
    # The way forward works as said.
    assert table.run(gm, "advance doom by -3", job_id="back").texts[0][0] in (
        "The Doom clock falls back to 0/6.",
        "Doom: 0 of 6 segments filled.",
    )


@pytest.mark.django_db
def test_a_player_is_told_only_the_gm_changes_clocks(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.run(gm, "create clock Doom with 6 segments", job_id="doom")
    before = table.revision()
    run = table.run(player, "delete clock doom", job_id="delete")
    assert run.texts == [("Only the GM changes clocks.", "requester")]
    assert run.tools == []
    assert table.revision() == before
