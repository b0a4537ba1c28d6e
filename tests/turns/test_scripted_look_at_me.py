""" "look at me", "describe myself": the requester's own character sheet, as "show my
character" reads it, instead of "I cannot find “me” here"."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

SHEET = "Ilsa (fighter, level 1): 12/12 HP, AC 16, speed 30 ft; attacks: Longsword, Unarmed Strike."


@pytest.mark.parametrize("text", ["look at me", "look at myself!", "describe myself"])
def test_a_player_looking_at_themself_reads_their_sheet(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, text, job_id="me")
    assert run.texts == [(SHEET, "requester")]


def test_a_gm_without_a_character_is_told_to_name_who(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(gm, "look at me", job_id="gm-me")
    assert run.texts == [
        ("As the GM you have no character: “look at <name>” reads anyone's.", "requester")
    ]
