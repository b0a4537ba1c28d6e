""" "what's the goblin's hp?", "how many hp does goblin 2 have?", or in two words "goblin hp",
"goblin 2's hp?": the GM is told a monster's exact hit points (the GM's alone, as after
damage); a player asking is told the status word the table sees, never the number."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("what's the goblin's hp?", "Goblin: 7/7 HP."),
        ("how many hp does goblin 2 have?", "Goblin 2: 3/7 HP."),
        ("how many hit points does goblin 2 have left?", "Goblin 2: 3/7 HP."),
        ("what is Goblin 2's health?", "Goblin 2: 3/7 HP."),
        # In two words, as a table asks it (it was not understood).
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


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("what's the goblin's hp?", "Goblin: unhurt (its hit points are the GM's to know)."),
        ("how many hp does goblin 2 have?",
         "Goblin 2: bloodied (its hit points are the GM's to know)."),
        ("how many hit points does the goblin have?",
         "Goblin: unhurt (its hit points are the GM's to know)."),
        ("goblin 2 hp", "Goblin 2: bloodied (its hit points are the GM's to know)."),
    ],
)  # fmt: skip
def test_a_player_is_told_a_monsters_status_not_its_number(live_domains, gm, player, text, reply):
    table, _start = dnd_table_in_combat(gm, player)
    _gm_write(table, "damage_apply", target_id="mon-3", amount=4)
    run = table.run(player, text, job_id="hp")
    assert run.texts == [(reply, "requester")]
    assert "character_get" not in run.tools


def test_a_characters_hit_points_are_told_to_anyone(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-1", amount=5)
    run = table.run(gm, "how many hp does Ilsa have?", job_id="hp")
    assert run.texts == [("Ilsa: 7/12 HP.", "requester")]


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
