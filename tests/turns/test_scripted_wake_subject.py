"""Waking and knocking out name a creature present: "wake up" alone names nobody (not a
creature called "up"), and a subject that is no creature here ("the sun wakes up",
"everyone falls unconscious") is answered with the creatures present, at any seat, in any
phase, before anything else is said of it."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", ["wake up", "I wake up", "Wake up!"])
def test_the_gm_is_asked_who_wakes_up_when_nobody_is_named(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, text, job_id="wake-nobody")
    assert run.texts == [
        ("Say who wakes up, as in “wake Ilsa”. Present: Ilsa, Goblin 2, Goblin.", "requester")
    ]
    assert "condition_remove" not in run.tools
    assert table.revision() == before


def test_a_player_who_says_wake_up_is_told_only_the_gm_can(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, "I wake up", job_id="p-wake-nobody")
    assert run.texts == [("Only the GM can remove a creature's condition.", "requester")]
