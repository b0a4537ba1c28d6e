"""A death save that kills passes the turn as "end turn" would, and a concentration spell whose
duration runs out as that next turn starts ends then (SRD 5.1: Bless lasts 1 minute, 10 rounds,
so one cast on the caster's turn ends as that turn comes round 10 rounds later): the scripted GM
says which spell ended there too."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write
from tests.turns.test_scripted_bless import _blessed, _party, _read

pytestmark = pytest.mark.django_db


def _pass_turns_until(table, round_, current, *, most=200):
    """Every turn before `current`'s in round `round_` passed straight through the rules; at
    most `most` of them, so a turn that never comes fails rather than loops for ever."""
    status = table.call(table.gm, "combat_status").structured["combat"]
    for _passed in range(most):
        if (status["round"], status["current"]) == (round_, current):
            return
        passed = _gm_write(table, "combat_end_turn")
        status = {**status, "round": passed["round"], "current": passed["current"]}
    pytest.fail(
        f"{current}'s turn in round {round_} did not come in {most} turns: round "
        f"{status['round']}, {status['current']}'s turn"
    )


def test_a_death_save_that_passes_the_turn_to_a_caster_says_its_bless_ran_out(
    live_domains, gm, player
):
    table = _party(gm, player)
    table.run(gm, "start combat with a goblin", job_id="fight")
    # Initiative: Bram (pc-2), Ilsa (pc-3), Ash (pc-1), the goblin, Wren (pc-4). Cast on Ash's
    # turn of round 1, Bless ends as Ash's turn of round 11 starts, straight after Ilsa's.
    _pass_turns_until(table, 1, "pc-1")
    table.run(player, "cast bless on Bram and me", job_id="bless")
    _pass_turns_until(table, 11, "pc-2")
    # Ilsa drops on Bram's turn and takes two failed death saves from two more blows.
    hp = _read(table, "pc-3")["hp"]["current"]
    for amount in (hp, 1, 1):
        _gm_write(table, "damage_apply", target_id="pc-3", amount=amount)
    table.run(gm, "end turn", job_id="to-ilsa")
    # The GM's roll draws from the campaign's seeded stream, so Ilsa's death save is a 7.
    table.run(gm, "roll 3d6", job_id="roll")
    assert [_blessed(table, c) for c in ("pc-1", "pc-2")] == [True, True]

    run = table.run(gm, "death save for Ilsa", job_id="save")

    assert run.tools == ["combat_status", "death_save", "combat_status"]
    assert run.texts == [
        ("Ilsa rolls 7 on a death save and dies. Ash acts next (round 11). Ash's Bless ends: its "
         "duration ran out.", "trigger"),
    ]  # fmt: skip
    assert [_blessed(table, c) for c in ("pc-1", "pc-2")] == [False, False]
    assert "concentration" not in _read(table, "pc-1")
    status = table.call(gm, "combat_status").structured["combat"]
    assert (status["round"], status["current"]) == (11, "pc-1")
