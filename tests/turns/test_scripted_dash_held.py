""" "I dash" while grappled: the action is spent but a speed of 0 adds nothing, said as such,
where the reply counted "0 ft more movement"."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


def test_dashing_at_speed_0_is_said_to_gain_nothing(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    _gm_write(table, "condition_add", target_id="pc-1", condition="grappled")

    run = table.run(player, "I dash", job_id="dash")

    assert run.texts == [
        ("Ilsa dashes, but with a speed of 0 gains no movement this turn.", "trigger")
    ]
