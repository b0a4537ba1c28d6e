""" "I punch the goblin with my fist": the body part said after a punch, kick or head-butt is
the Unarmed Strike's own, not a weapon the character must have."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_phrasings import _read_as


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("I punch the goblin with my fist", {"target": "the goblin", "weapon": "a punch"}),
        ("kick goblin 2 with my foot", {"target": "goblin 2", "weapon": "a kick"}),
        ("I kick the goblin with my boot with advantage",
         {"target": "the goblin", "weapon": "a kick", "mode": "advantage"}),
        ("Ilsa punches the goblin with her left fist",
         {"attacker": "Ilsa", "target": "the goblin", "weapon": "a punch"}),
    ],
)  # fmt: skip
def test_a_blow_said_with_a_body_part_is_the_blow_at_its_target(text, groups):
    _read_as("dnd5e", text, s.dnd_attack, groups)


@pytest.mark.parametrize("text", ["punch the goblin with advantage", "kick goblin 2"])
def test_a_blow_said_without_a_body_part_keeps_its_target(text):
    intent, match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is s.dnd_attack
    assert match["target"] == text.split(" ", 1)[1].removesuffix(" with advantage")
