""" "I fire bolt at the goblin": the cantrip's name said as a verb casts it, not an attack with
a weapon called "bolt" (the "fire at" of a crossbow keeps its weapon)."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_phrasings import _read_as


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("fire bolt at the goblin", "the goblin"),
        ("I fire bolt at the goblin", "the goblin"),
        ("fire bolt on goblin 2", "goblin 2"),
    ],
)
def test_fire_bolt_said_at_a_target_casts_it(text, target):
    _read_as("dnd5e", text, s.dnd_damage_spell, {"spell": "fire bolt", "target": target})


@pytest.mark.parametrize(
    ("text", "weapon"),
    [("fire my crossbow at the goblin", "my crossbow"), ("fire bolts at the goblin", "bolts")],
)
def test_a_weapon_fired_at_a_target_is_still_an_attack_with_it(text, weapon):
    _read_as("dnd5e", text, s.dnd_attack, {"target": "the goblin", "weapon": weapon})
