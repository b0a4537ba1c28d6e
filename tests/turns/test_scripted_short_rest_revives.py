"""A stable character at 0 hit points spends Hit Dice on a short rest (SRD 5.1: only a long
rest needs 1 hit point): the scripted GM says they come to when the dice heal them."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write
from tests.turns.test_scripted_short_rest import _character, _fighters_table

pytestmark = pytest.mark.django_db


def test_a_stable_character_healed_by_hit_dice_comes_to(live_domains, gm, player):
    table = _fighters_table(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-1", amount=28)
    # The campaign's seeded dice: a third success leaves Ilsa stable at 0 HP.
    outcomes = [_gm_write(table, "death_save", character_id="pc-1")["outcome"] for _ in range(4)]
    assert outcomes == ["failure", "success", "success", "stable"]

    run = table.run(player, "I take a short rest and spend 2 hit dice", job_id="rest")

    assert run.tools == ["short_rest"]
    assert run.texts == [
        ("Ilsa spends 2 Hit Dice (2d10+4 = 11) and recovers 11 HP (now 11/28); 1 Hit Die "
         "left. Ilsa comes to.", "trigger"),
    ]  # fmt: skip
    assert _character(table)["conditions"] == ["prone"]
