"""A roll's label may itself say how often something happens ("for the bell that rings
twice"): that is the label, kept whole and rolled once. Only the roll said more than once
("roll 1d20 twice", "roll 2d6 for damage 3 times") is answered one at a time."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db

LABELLED = [
    ("roll 1d6 for the bell that rings twice", "1d6", "the bell that rings twice"),
    ("roll 1d20 for whether the raven calls thrice", "1d20", "whether the raven calls thrice"),
    ("roll 1d8 for the guard who knocks two times", "1d8", "the guard who knocks two times"),
]


def _rolled(calls):
    return [(a["expression"], a.get("label")) for tool, a in calls if tool == "dice_roll"]


@pytest.mark.parametrize(("text", "expression", "label"), LABELLED)
def test_a_narrative_label_that_says_twice_is_kept(
    live_domains, gm, player, text, expression, label
):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    calls, _output = _sent(table, player, text)
    assert _rolled(calls) == [(expression, label)]


@pytest.mark.parametrize(("text", "expression", "label"), LABELLED)
def test_a_dnd_label_that_says_twice_is_kept(live_domains, gm, player, text, expression, label):
    table, _start = dnd_table_in_combat(gm, player)
    calls, _output = _sent(table, player, text)
    assert _rolled(calls) == [(expression, label)]
