"""A concentration spell whose duration runs out (SRD 5.1: Bless lasts 1 minute, 10 rounds) ends
as a turn starts: the scripted GM that ended the turn before says which spell ended."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write
from tests.turns.test_scripted_bless import _blessed, _party

pytestmark = pytest.mark.django_db


def test_ending_the_turn_that_ends_bless_says_so(live_domains, gm, player):
    table = _party(gm, player)
    table.run(player, "cast bless on Ilsa, Bram and me", job_id="bless")
    table.run(gm, "start combat with a goblin", job_id="fight")
    # Cast before the fight, Bless ends as round 11 starts: every turn of round 10 but the
    # last is passed straight through the rules.
    status = table.call(gm, "combat_status").structured["combat"]
    last = status["order"][-1]["id"]
    while (status["round"], status["current"]) != (10, last):
        passed = _gm_write(table, "combat_end_turn")
        status = {**status, "round": passed["round"], "current": passed["current"]}
    assert [_blessed(table, c) for c in ("pc-1", "pc-2", "pc-3")] == [True, True, True]

    run = table.run(gm, "end turn", job_id="round-11")

    assert run.tools == ["combat_status", "combat_end_turn", "combat_status"]
    assert run.texts == [
        ("The GM ends Wren's turn. Bram acts next (round 11). Ash's Bless ends: its duration "
         "ran out.", "trigger"),
    ]  # fmt: skip
    assert [_blessed(table, c) for c in ("pc-1", "pc-2", "pc-3")] == [False, False, False]
