""" "Roll with advantage" names no dice: it is the d20 a table rolls so, two kept high (or low,
with disadvantage), in either system."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db

SAID = [
    ("roll with advantage", {"expression": "2d20kh1"}),
    ("I roll with disadvantage for the jump", {"expression": "2d20kl1", "label": "the jump"}),
]


@pytest.mark.parametrize(("text", "rolled"), SAID)
def test_dnd_roll_with_advantage_is_a_d20(live_domains, gm, player, text, rolled):
    table, _start = dnd_table_in_combat(gm, player)
    calls, output = _sent(table, player, text)
    assert calls == [("dice_roll", rolled)]
    assert output.declined is False


@pytest.mark.parametrize(("text", "rolled"), SAID)
def test_narrative_roll_with_advantage_is_a_d20(live_domains, gm, player, text, rolled):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    calls, _output = _sent(table, player, text)
    assert calls == [("dice_roll", rolled)]


def test_the_d20_rolled_with_advantage_is_said(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    _calls, output = _sent(table, player, "roll with advantage")
    assert [(m.text, m.audience) for m in output.messages] == [
        ("1d20 with advantage: 14 (dropped 4).", "trigger")
    ]
