"""Dice and DCs said in words: "roll two d6" is 2d6, "roll three d8 for damage" 3d8, and
"dc twenty one" is DC 21 without its hyphen too."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db

SAID = [
    ("roll two d6", {"expression": "2d6"}),
    ("roll three d8 for damage", {"expression": "3d8", "label": "damage"}),
    ("Roll Four d6 drop lowest", {"expression": "4d6kh3"}),
    ("roll twelve d10+2", {"expression": "12d10+2"}),
]


@pytest.mark.parametrize(("text", "rolled"), SAID)
def test_dnd_dice_counted_in_words(live_domains, gm, player, text, rolled):
    table, _start = dnd_table_in_combat(gm, player)
    calls, _output = _sent(table, player, text)
    assert calls == [("dice_roll", rolled)]


@pytest.mark.parametrize(("text", "rolled"), SAID)
def test_narrative_dice_counted_in_words(live_domains, gm, player, text, rolled):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    calls, _output = _sent(table, player, text)
    assert [(t, a) for t, a in calls if t == "dice_roll"] == [("dice_roll", rolled)]


@pytest.mark.parametrize(
    ("text", "tool", "dc"),
    [
        ("check stealth dc twenty one", "ability_check", 21),
        ("save dex dc twenty one", "saving_throw", 21),
        ("check athletics dc thirty", "ability_check", 30),
        ("check athletics dc twenty-two", "ability_check", 22),
    ],
)
def test_a_dc_in_words_without_a_hyphen(live_domains, gm, player, text, tool, dc):
    table, _start = dnd_table_in_combat(gm, player)
    calls, _output = _sent(table, player, text)
    assert [(t, a["dc"]) for t, a in calls] == [(tool, dc)]
