""" "am I poisoned?", "am I hurt?": "is <target> …?" asked of one's own character, answered
from its status and conditions, to the one who asks."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("am I poisoned?", "No: Ilsa is unhurt and prone."),
        ("am i hurt", "No: Ilsa is unhurt and prone."),
        ("am I still prone?", "Yes: Ilsa is prone."),
    ],
)
def test_a_state_asked_of_oneself_is_answered(live_domains, gm, player, text, reply):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    table.run(gm, "knock Ilsa prone", job_id="prone")
    before = table.revision()
    run = table.run(player, text, job_id="am-i")
    assert run.texts == [(reply, "requester")]
    assert table.revision() == before


def test_a_gm_without_a_character_is_told_what_can_be_asked(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(gm, "am I poisoned?", job_id="am-i")
    assert run.texts == [
        ("I can only answer from the game's state: whose turn is it?, what can I do?, where am "
         "I?, is <name> dead?, how many goblins are there?, or “describe” (say “help” for every "
         "command).", "requester"),
    ]  # fmt: skip
