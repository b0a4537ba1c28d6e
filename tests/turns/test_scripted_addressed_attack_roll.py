""" "Ilsa, roll to hit the goblin", "Ilsa, make an attack roll against goblin 2": the roll a
table makes for an attack, addressed to a character, is that character's attack, as "Ilsa,
attack the goblin" is; it was not understood ("Closest: roll <dice>"). Said of a creature
("goblin 2 rolls to hit Ilsa") it is that creature's. A roll's label that says it ("roll 1d20
for the rogue who rolls to hit") stays the label."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_attack_roll_said import assert_attacks_as_said, assert_read_as_attack

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("Ilsa rolls to hit the goblin", {"attacker": "Ilsa", "target": "the goblin"}),
        ("goblin 2 makes an attack roll against Ilsa", {"attacker": "goblin 2", "target": "Ilsa"}),
        ("Ilsa rolls an attack roll vs goblin 2 with advantage",
         {"attacker": "Ilsa", "target": "goblin 2", "mode": "advantage"}),
        ("Ilsa rolls to hit", {"attacker": "Ilsa", "target": None}),
    ],
)  # fmt: skip
def test_an_attack_roll_said_of_a_creature_is_its_attack(text, groups):
    assert_read_as_attack(text, groups)


def test_a_label_that_says_an_attack_roll_is_the_label():
    intent, match = s._parse("dnd5e", "roll 1d20 for the rogue who rolls to hit")
    assert intent is not None and match is not None
    assert (intent.handler, match["label"]) == (s.roll_dice, "the rogue who rolls to hit")


@pytest.mark.parametrize(
    ("text", "plain", "target"),
    [
        ("Ilsa, roll to hit the goblin", "Ilsa, attack the goblin", "mon-2"),
        ("Ilsa, make an attack roll against goblin 2", "Ilsa, attack goblin 2", "mon-3"),
    ],
)
def test_an_attack_roll_addressed_to_a_character_is_its_attack(
    live_domains, gm, player, text, plain, target
):
    assert_attacks_as_said(gm, player, text, plain, {"target_id": target})


def test_an_attack_roll_addressed_at_nobody_here_is_refused(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, "Ilsa, roll to hit the door", job_id="door")
    assert run.texts == [
        ("I cannot find “the door” here. Present: Ilsa, Goblin 2, Goblin.", "requester")
    ]
    assert "attack" not in run.tools
    assert table.revision() == before


@pytest.mark.parametrize(
    "text",
    [
        "roll 1d20 for the goblin that attacks",
        "roll 1d20 for the goblin who attacks Ilsa",
        "roll 1d20 for the goblin who shoots Ilsa",
        "roll 1d20 for the goblin that swings its axe at Ilsa",
        "roll 1d6 for the rogue who punches the guard",
    ],
)
def test_a_label_that_says_someone_attacks_is_the_label_as_said(text):
    intent, match = s._parse("dnd5e", text)
    assert intent is not None and match is not None
    assert (intent.handler, match["label"]) == (s.roll_dice, text.split(" for ", 1)[1])
