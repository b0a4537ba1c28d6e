""" "attack goblin 2 with my longsword and advantage": the weapon, then how the d20 is rolled,
as "... with my longsword with advantage" says it."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s


@pytest.mark.parametrize(
    ("text", "weapon", "mode"),
    [
        ("attack goblin 2 with longsword and advantage", "longsword", "advantage"),
        (
            "attack goblin 2 with my longsword and with disadvantage!",
            "my longsword",
            "disadvantage",
        ),
        ("goblin 2 attacks Ilsa with its scimitar and advantage", "its scimitar", "advantage"),
        ("attack goblin 2 with longsword with advantage", "longsword", "advantage"),
    ],
)
def test_the_weapon_and_the_roll_said_with_and(text, weapon, mode):
    intent, match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is s.dnd_attack, text
    assert (match["weapon"], match["mode"]) == (weapon, mode)
