"""A count at the end of a roll's label stays in it when the label says who did the thing
counted ("the door I kicked 3 times", "the guard she hit twice"): rolled once, label whole.
A label that names no doer ("damage 3 times", "you twice") is the roll said that often,
answered one at a time; in either system."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db

KEPT = [
    ("roll a d20 for the door I kicked 3 times", "1d20", "the door I kicked 3 times"),
    ("roll 1d6 for the guard she hit twice", "1d6", "the guard she hit twice"),
    ("roll 1d8 for the bells we rang three times", "1d8", "the bells we rang three times"),
]
REPEATED = [
    ("roll 2d6 for damage 3 times", "roll 2d6 for damage"),
    ("roll 1d20 for you twice", "roll 1d20 for you"),
    ("roll 1d20 for them 3 times", "roll 1d20 for them"),
]


def _rolled(calls):
    return [(a["expression"], a.get("label")) for tool, a in calls if tool == "dice_roll"]


def _narrative(gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    return table


@pytest.mark.parametrize(("text", "expression", "label"), KEPT)
def test_a_dnd_label_that_says_who_keeps_its_count(
    live_domains, gm, player, text, expression, label
):
    table, _start = dnd_table_in_combat(gm, player)
    calls, _output = _sent(table, player, text)
    assert _rolled(calls) == [(expression, label)]


@pytest.mark.parametrize(("text", "expression", "label"), KEPT)
def test_a_narrative_label_that_says_who_keeps_its_count(
    live_domains, gm, player, text, expression, label
):
    calls, _output = _sent(_narrative(gm, player), player, text)
    assert _rolled(calls) == [(expression, label)]


@pytest.mark.parametrize(("text", "once"), REPEATED)
def test_a_label_that_names_no_doer_is_the_roll_said_that_often(
    live_domains, gm, player, text, once
):
    calls, output = _sent(_narrative(gm, player), player, text)
    assert calls == []
    assert list(output.suggestions) == [once]
