"""An opportunity attack said as one ("the goblin makes an opportunity attack against Ilsa") is
the goblin's attack on Ilsa as a reaction, as "goblin attacks Ilsa as a reaction" is; not an
attack by "the goblin makes an opportunity". A roll's label that says who makes an attack
stays the roll's label."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from apps.turns.agents.scripted import ScriptedAgent
from tests.turns.test_scripted_opportunity_attacks import _turn
from tests.turns.test_scripted_reaction_narration import MISS, ORDER, _Recorder

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("said", "groups"),
    [
        ("the goblin makes an opportunity attack against Ilsa",
         {"attacker": "the goblin", "target": "Ilsa"}),
        ("goblin 2 makes an opportunity attack on Ilsa with its scimitar",
         {"attacker": "goblin 2", "target": "Ilsa", "weapon": "its scimitar"}),
        ("Goblin 2 makes an opportunity attack at Ilsa!",
         {"attacker": "Goblin 2", "target": "Ilsa"}),
        ("goblin 2 makes an opportunity attack", {"attacker": "goblin 2", "target": None}),
    ],
)  # fmt: skip
def test_an_opportunity_attack_said_of_its_attacker_is_that_ones_reaction(said, groups):
    intent, match = s._parse("dnd5e", said)
    assert intent is not None and intent.handler is s.dnd_attack
    assert {k: match.groupdict().get(k) for k in groups} == groups
    assert match["opportunity"].lower() == "opportunity attack"
    assert match.groupdict().get("attackers") is None


def test_make_an_opportunity_attack_is_the_speakers_reaction():
    intent, match = s._parse("dnd5e", "make an opportunity attack against the goblin")
    assert intent is not None and intent.handler is s.dnd_attack
    assert (match["target"], match["opportunity"]) == ("the goblin", "opportunity attack")


@pytest.mark.parametrize(
    ("said", "label"),
    [
        ("roll 1d20 for the rogue who makes an attack", "the rogue who makes an attack"),
        ("roll 1d20 for the rogue who makes an opportunity attack",
         "the rogue who makes an opportunity attack"),
    ],
)  # fmt: skip
def test_a_rolls_label_saying_who_makes_an_attack_stays_a_roll(said, label):
    intent, match = s._parse("dnd5e", said)
    assert intent is not None and intent.handler is s.roll_dice
    assert match["label"] == label


def test_the_gms_opportunity_attack_said_so_is_made_as_a_reaction():
    # Two goblins: the second (mon-3) is "Goblin 2" at the table.
    stub = _Recorder(
        {
            "combat_status": {"combat": {"current": "pc-1", "round": 1, "order": ORDER}},
            "attack": {**MISS, "attack": "Scimitar", "opportunity_attack": True},
        }
    )
    turn = _turn("goblin 2 makes an opportunity attack against Ilsa", role="gm", character_id=None)
    ScriptedAgent().run_turn(turn, stub)
    assert [c[1] for c in stub.calls if c[0] == "attack"] == [
        {"attacker_id": "mon-3", "target_id": "pc-1", "as_reaction": True}
    ]
