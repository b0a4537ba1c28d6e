"""A question typed without its apostrophe ("whats my hp", "whos here") is the question, in
either system."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import dnd_table_in_combat


@pytest.mark.parametrize(
    ("system_id", "text", "handler"),
    [
        ("dnd5e", "whats my hp", s.dnd_sheet),
        ("dnd5e", "Whats my AC?", s.dnd_sheet),
        ("dnd5e", "whos here?", s.dnd_describe),
        ("dnd5e", "whats happening", s.dnd_describe),
        ("dnd5e", "whos up", s.dnd_whose_turn),
        ("narrative", "whats going on?", s.nar_describe),
        ("narrative", "whos here", s.nar_cast),
    ],
)
def test_a_question_without_its_apostrophe_is_read(system_id, text, handler):
    intent, _match = s._parse(system_id, text)
    assert intent is not None
    assert intent.handler is handler


@pytest.mark.django_db
def test_whats_my_hp_is_answered(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, "whats my hp", job_id="hp")
    assert run.texts == [
        (
            "Ilsa (fighter, level 1): 12/12 HP, AC 16, speed 30 ft; attacks: Longsword, "
            "Unarmed Strike.",
            "requester",
        )
    ]
