""" "the second goblin", "goblin two", "goblin number 2", "the first goblin": a creature's
number said aloud, in words or as an ordinal, names the creature the table reads with that
number ("Goblin 2"), as the digits do."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db

# Ilsa (pc-1), Goblin 2 (mon-3), Goblin (mon-2).
SAID = [
    ("the second goblin", "goblin 2"),
    ("the 2nd goblin", "goblin 2"),
    ("goblin two", "goblin 2"),
    ("goblin number 2", "goblin 2"),
    ("goblin #2", "goblin 2"),
    ("the first goblin", "goblin"),
    ("goblin one", "goblin"),
]


@pytest.mark.parametrize(("said", "digits"), SAID)
def test_a_number_said_aloud_names_the_creature_so_numbered(live_domains, gm, player, said, digits):
    table, _start = dnd_table_in_combat(gm, player)
    as_digits = table.run(player, f"look at {digits}", job_id="look")
    aloud = table.run(player, f"look at {said}", job_id="look")
    assert aloud.texts == as_digits.texts
    assert aloud.texts[0][1] == "trigger"


@pytest.mark.parametrize(
    ("text", "target"),
    [("attack the second goblin", "mon-3"), ("attack goblin two", "mon-3"),
     ("attack the first goblin", "mon-2")],
)  # fmt: skip
def test_an_attack_on_a_creature_numbered_aloud_goes_to_it(live_domains, gm, player, text, target):
    table, _start = dnd_table_in_combat(gm, player)
    calls, _output = _sent(table, player, text)
    assert calls == [("attack", {"attacker_id": "pc-1", "target_id": target})]


def test_a_number_no_creature_has_is_not_found(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, "attack the third goblin", job_id="third")
    assert run.texts == [
        ("I cannot find “the third goblin” here. Present: Ilsa, Goblin 2, Goblin.", "requester")
    ]
    assert "attack" not in run.tools
