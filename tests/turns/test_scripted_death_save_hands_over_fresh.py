"""A death save that kills passes the turn: the options offered for the next combatant are read
after the save, from the budget its new turn starts with, not from the one its last turn spent
(a goblin that attacked last round is offered its attack again)."""

from __future__ import annotations

import pytest

from apps.turns.types import OfferedTurn
from tests.turns.test_scripted_agent import _gm_write
from tests.turns.test_scripted_bless import _party, _read
from tests.turns.test_scripted_spell_duration_ends_on_a_death_save import _pass_turns_until

pytestmark = pytest.mark.django_db


def test_a_death_save_that_kills_offers_the_next_monster_its_attack(live_domains, gm, player):
    table = _party(gm, player)
    table.run(gm, "start combat with a goblin", job_id="fight")
    # Initiative: Bram (pc-2), Ilsa (pc-3), Ash (pc-1, the player's), the goblin, Wren (pc-4).
    _pass_turns_until(table, 1, "mon-5")
    table.run(gm, "goblin attacks Bram", job_id="hit")  # its action spent in round 1
    _pass_turns_until(table, 2, "pc-2")
    # Ash drops on Bram's turn and takes two failed death saves from two more blows.
    hp = _read(table, "pc-1")["hp"]["current"]
    for amount in (hp, 1, 1):
        _gm_write(table, "damage_apply", target_id="pc-1", amount=amount)
    _pass_turns_until(table, 2, "pc-1")
    # The GM's roll draws from the campaign's seeded stream, so Ash's death save is a 7.
    table.run(gm, "roll 1d6", job_id="roll")

    run = table.run(player, "death save", job_id="save")

    assert run.texts == [
        ("Ash rolls 7 on a death save and dies. Goblin acts next (round 2).", "trigger")
    ]
    assert run.output.turn == OfferedTurn("combat", 2, "mon-5")
    assert (run.output.suggestions, run.output.gm_suggestions) == (
        (),
        ("goblin attacks Bram", "end turn"),
    )
