"""A creature moved by name ("goblin 2 moves to 6,2", "Goblin 2 moves 1 square east",
"goblin 2 moves next to Ilsa"), as the GM's suggestions name who acts: by the same rules as
"move ..."; a player names only their own character."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _moves(table: Any, user: Any, text: str) -> tuple[list[dict[str, Any]], Any]:
    """The moves one turn sends, with their arguments, and its output."""
    turn = table.context(user, text, job_id=text)
    caller = table.caller(user, turn)
    sent: list[dict[str, Any]] = []

    def recording(tool: str, arguments: Any) -> Any:
        if tool == "combat_move":
            sent.append(dict(arguments))
        return caller(tool, arguments)

    return sent, ScriptedAgent().run_turn(turn, recording)


@pytest.mark.parametrize(
    ("text", "square"),
    [
        ("goblin 2 moves to 6,2", (6, 2)),
        ("Goblin 2 moves 1 square east.", (7, 0)),
        ("goblin 2 walks east", (7, 0)),
        ("goblin 2 moves next to Ilsa", (6, 0)),
    ],
)
def test_the_gm_moves_the_creature_it_names(live_domains, gm, player, text, square):
    # Ilsa at (5, 0), Goblin 2 (mon-3) at (6, 0) and up once Ilsa's turn ends; it steps away
    # first for "next to Ilsa" to go somewhere (back to the free square nearest it).
    table, _start = dnd_table_in_combat(gm, player)
    table.run(gm, "end Ilsa's turn", job_id="to-goblin-2")
    if "Ilsa" in text:
        table.run(gm, "move to 8,1", job_id="away")
    sent, output = _moves(table, gm, text)
    assert sent == [{"character_id": "mon-3", "x": square[0], "y": square[1]}]
    assert output.declined is False


def test_a_player_moves_their_own_character_by_name(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) at (5, 0) is up
    sent, _output = _moves(table, player, "Ilsa moves to 4,1")
    assert sent == [{"character_id": "pc-1", "x": 4, "y": 1}]


def test_a_player_cannot_move_another_creature(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    sent, output = _moves(table, player, "goblin 2 moves to 6,2")
    assert sent == []
    assert [m.text for m in output.messages] == ["You can only act as your own character."]
    assert table.revision() == before
