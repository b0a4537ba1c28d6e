""" "goblin hp", "goblin 2's hp?": a creature's hit points asked in two words, as "what's the
goblin's hp?" is (the GM is told a monster's number alone, a player its status); it was not
understood."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("goblin hp", "Goblin: 7/7 HP."),
        ("goblin 2 hp?", "Goblin 2: 3/7 HP."),
        ("Goblin 2's hp", "Goblin 2: 3/7 HP."),
        ("the goblin's hit points", "Goblin: 7/7 HP."),
    ],
)
def test_the_gm_is_told_a_monsters_hit_points_alone(live_domains, gm, player, text, reply):
    table, _start = dnd_table_in_combat(gm, player)  # Goblin 2 is mon-3
    _gm_write(table, "damage_apply", target_id="mon-3", amount=4)
    before = table.revision()
    run = table.run(gm, text, job_id="hp")
    assert run.texts == [(reply, "gm")]
    assert table.revision() == before


def test_a_player_is_told_a_monsters_status_not_its_number(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    _gm_write(table, "damage_apply", target_id="mon-3", amount=4)
    run = table.run(player, "goblin 2 hp", job_id="hp")
    assert run.texts == [("Goblin 2: bloodied (its hit points are the GM's to know).", "requester")]
    assert "character_get" not in run.tools


@pytest.mark.parametrize(
    ("text", "handler"),
    [
        ("my hp", s.dnd_sheet),
        ("give me 5 temp hp", s.dnd_temp_hp),
        ("grant Ilsa 5 temp hp", s.dnd_temp_hp),
        ("heal Ilsa 5 hp", s.dnd_heal),
    ],
)
def test_commands_that_end_in_hp_keep_their_meaning(text, handler):
    intent, _match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is handler, text


@pytest.mark.parametrize("text", ["I have 5 hp", "the door hp", "low hp"])
def test_words_before_hp_that_name_nobody_are_not_understood(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="hp")
    assert run.texts == [
        ("I did not understand that. Say “help” for everything I understand.", "requester")
    ]
    assert table.revision() == before
