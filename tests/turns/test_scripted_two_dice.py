"""Several dice named in one roll ("roll a d20 and a d6") are each rolled, one roll per die
named, and each result is said; in either system."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db

SAID = [
    ("roll a d20 and a d6", [{"expression": "1d20"}, {"expression": "1d6"}]),
    (
        "Roll 1d20+5 and 2d6+3 for the attack!",
        [
            {"expression": "1d20+5", "label": "the attack!"},
            {"expression": "2d6+3", "label": "the attack!"},
        ],
    ),
    (
        "roll a d4, two d6 and a d8.",
        [{"expression": "1d4"}, {"expression": "2d6"}, {"expression": "1d8"}],
    ),
    ("I roll a d20 & a d6", [{"expression": "1d20"}, {"expression": "1d6"}]),
]


def _narrative_table(gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    return table


@pytest.mark.parametrize(("text", "rolled"), SAID)
def test_dnd_rolls_each_die_named(live_domains, gm, player, text, rolled):
    table, _start = dnd_table_in_combat(gm, player)
    calls, output = _sent(table, player, text)
    assert calls == [("dice_roll", arguments) for arguments in rolled]
    assert output.declined is False


@pytest.mark.parametrize(("text", "rolled"), SAID)
def test_narrative_rolls_each_die_named(live_domains, gm, player, text, rolled):
    table = _narrative_table(gm, player)
    calls, output = _sent(table, player, text)
    assert calls == [("dice_roll", arguments) for arguments in rolled]
    assert output.declined is False


def test_each_result_is_said(live_domains, gm, player):
    table = _narrative_table(gm, player)
    _calls, output = _sent(table, player, "roll a d20 and 2d6 for luck")
    assert [(m.text, m.audience) for m in output.messages] == [
        ("The dice tumble (luck): 1d20 = 4 and 2d6 = 5 (4 + 1).", "trigger")
    ]


def test_a_die_the_tool_refuses_is_said_after_the_rolls_made(live_domains, gm, player):
    table = _narrative_table(gm, player)
    calls, output = _sent(table, player, "roll a d20 and a d1")
    assert calls == [("dice_roll", {"expression": "1d20"}), ("dice_roll", {"expression": "1d1"})]
    assert [(m.text, m.audience) for m in output.messages] == [
        ("The dice tumble: 1d20 = 4.", "trigger"),
        ("That cannot happen: die size 1 is outside 2..1000.", "requester"),
    ]
