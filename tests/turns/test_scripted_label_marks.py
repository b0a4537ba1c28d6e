"""A roll's label keeps its own closing "!", "?" or ellipsis, and loses a sentence's full stop,
the same in dnd5e as in narrative, and said in the first person ("I roll …") as without it."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_closing_marks import _sent
from tests.turns.test_scripted_narrative import _writes

pytestmark = pytest.mark.django_db

LABELS = [
    ("roll 2d6 for damage.", "damage"),
    ("roll 1d20 for luck!", "luck!"),
    ("roll 1d6 for the lamp...", "the lamp..."),
    ("roll 1d6 for who goes first?", "who goes first?"),
    ("I roll 1d20 for luck!", "luck!"),
    ("I roll a d20 for luck!", "luck!"),
    ("I roll 2d6 for damage.", "damage"),
]


@pytest.mark.parametrize("system_id", ["dnd5e", "narrative"])
@pytest.mark.parametrize(("text", "label"), LABELS)
def test_a_rolls_label_keeps_its_own_marks_in_every_system(
    live_domains, gm, player, system_id, text, label
):
    table = make_table(system_id, gm, player)
    table.call(gm, "phase_set", phase="play", expected_revision=table.revision())
    if system_id == "dnd5e":
        sent, _output = _sent(table, player, text)
    else:
        sent = _writes(table, player, text)
    assert [(tool, arguments["label"]) for tool, arguments in sent] == [("dice_roll", label)]
