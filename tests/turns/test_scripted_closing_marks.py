"""A dnd5e line ending in a full stop or an exclamation mark means what it says without it:
the closing mark is the sentence's, never part of a DC, a weapon, a condition or a hit-point
amount (a roll's label keeps its own "!" or "?", as in narrative; a full stop is never its)."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _sent(table: Any, user: Any, text: str) -> tuple[list[tuple[str, dict[str, Any]]], Any]:
    """The writes and rolls one turn sends, with their arguments, and the run."""
    turn = table.context(user, text, job_id=text)
    caller = table.caller(user, turn)
    sent: list[tuple[str, dict[str, Any]]] = []

    def recording(tool: str, arguments: Any) -> Any:
        if tool not in ("combat_status", "campaign_get", "character_get"):
            sent.append((tool, dict(arguments)))
        return caller(tool, arguments)

    output = ScriptedAgent().run_turn(turn, recording)
    return sent, output


@pytest.mark.parametrize(
    ("text", "sent"),
    [
        (
            "attack the goblin with advantage!",
            ("attack", {"attacker_id": "pc-1", "target_id": "mon-2", "advantage": True}),
        ),
        (
            "attack the goblin with my longsword with disadvantage.",
            (
                "attack",
                {
                    "attacker_id": "pc-1",
                    "target_id": "mon-2",
                    "attack_name": "longsword",
                    "disadvantage": True,
                },
            ),
        ),
        (
            "check Perception dc 12.",
            ("ability_check", {"character_id": "pc-1", "dc": 12, "skill": "perception"}),
        ),
        ("save DEX dc 14!", ("saving_throw", {"character_id": "pc-1", "dc": 14, "ability": "dex"})),
        ("roll 2d6+3 for damage.", ("dice_roll", {"expression": "2d6+3", "label": "damage"})),
    ],
)
def test_a_players_closing_mark_is_the_sentences(live_domains, gm, player, text, sent):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    calls, output = _sent(table, player, text)
    assert calls == [sent]
    assert output.declined is False


@pytest.mark.parametrize(
    ("text", "sent"),
    [
        ("Wake Ilsa up.", ("condition_remove", {"target_id": "pc-1", "condition": "unconscious"})),
        (
            "Ilsa is no longer prone.",
            ("condition_remove", {"target_id": "pc-1", "condition": "prone"}),
        ),
        (
            "cure Ilsa of poison.",
            ("condition_remove", {"target_id": "pc-1", "condition": "poisoned"}),
        ),
        ("heal Ilsa for 5 hp!", ("heal", {"target_id": "pc-1", "amount": 5})),
        (
            "Ilsa makes a Dex save DC 12!",
            ("saving_throw", {"character_id": "pc-1", "dc": 12, "ability": "dex"}),
        ),
        (
            "goblin 2 attacks Ilsa as a reaction.",
            ("attack", {"attacker_id": "mon-3", "target_id": "pc-1", "as_reaction": True}),
        ),
    ],
)
def test_a_gms_closing_mark_is_the_sentences(live_domains, gm, player, text, sent):
    table, _start = dnd_table_in_combat(gm, player)
    calls, _output = _sent(table, gm, text)
    # Sent as meant; the rules may still refuse it (Ilsa is not prone), but never for the mark.
    assert calls == [sent]
