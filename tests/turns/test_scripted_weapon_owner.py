"""A weapon named with its owner's word ("with its scimitar", "with her longsword") is that
weapon, as "with my longsword" is."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _attacks(table: Any, user: Any, text: str) -> list[dict[str, Any]]:
    """The attack calls one turn sends, with their arguments."""
    turn = table.context(user, text, job_id=text)
    caller = table.caller(user, turn)
    sent: list[dict[str, Any]] = []

    def recording(tool: str, arguments: Any) -> Any:
        if tool == "attack":
            sent.append(dict(arguments))
        return caller(tool, arguments)

    ScriptedAgent().run_turn(turn, recording)
    return sent


@pytest.mark.parametrize(
    ("text", "weapon"),
    [
        ("attack the goblin with her longsword", "longsword"),
        ("attack goblin 2 with their Longsword!", "Longsword"),
        ("attack the goblin with his longsword with advantage", "longsword"),
    ],
)
def test_a_players_weapon_named_with_its_owners_word(live_domains, gm, player, text, weapon):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    assert [a.get("attack_name") for a in _attacks(table, player, text)] == [weapon]


def test_a_monsters_weapon_named_with_its(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(gm, "end Ilsa's turn", job_id="to-goblin-2")
    sent = _attacks(table, gm, "Goblin 2 attacks Ilsa with its scimitar!")
    assert sent == [{"attacker_id": "mon-3", "target_id": "pc-1", "attack_name": "scimitar"}]
