""" "I shove goblin 2" / "push goblin 2 back": the rules' shove (one attack of the Attack
action, Athletics against Athletics or Acrobatics), where it was not understood."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "target", "how"),
    [
        ("I shove goblin 2", "goblin 2", None),
        ("shove the goblin prone", "the goblin", "prone"),
        ("I shove the goblin away", "the goblin", "away"),
        ("push goblin 2 back", "goblin 2", "back"),
    ],
)
def test_a_shove_is_understood(text, target, how):
    intent, match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is s.dnd_shove, text
    assert (match["target"], match["how"]) == (target, how)


def test_ilsa_shoves_a_goblin(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up, Goblin 2 beside her

    run = table.run(player, "I shove goblin 2 prone", job_id="shove")

    taken = [o.structured for o in run.caller.outcomes if o.tool == "combat_action"]
    assert [(t["action"], t["target_id"], t["shove"]) for t in taken] == [
        ("shove", "mon-3", "prone")
    ], run.texts
    assert run.texts[0] == (
        "Ilsa shoves goblin 2 prone: Athletics 18 against Acrobatics 6.",
        "trigger",
    )
