"""A look names a creature as the table does elsewhere: "the Goblin", but "Goblin 2" (a
number names one creature, as a name does); a dead character's player is not told their
character looks at anything."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, TurnContext
from tests.turns.test_scripted_conditions import _combatant, _Stub

JOBS = [f"job-{n}" for n in range(8)]  # enough for every phrasing to be picked


def _looks(text: str, *, character_id: str | None, ash: str = "unhurt") -> set[str]:
    said = set()
    for job_id in JOBS:
        turn = TurnContext(
            job_id=job_id,
            system_id="dnd5e",
            phase="combat",
            role="player" if character_id else "gm",
            task="action",
            text=text,
            tools=(ToolInfo("combat_status", "", {"type": "object", "properties": {}}),),
            character_id=character_id,
        )
        order = [
            _combatant("pc-1", "Ash", "pc", status=ash),
            _combatant("mon-2", "Goblin", "monster", monster_key="goblin"),
            _combatant("mon-3", "Goblin", "monster", monster_key="goblin"),
        ]
        stub = _Stub(
            {"combat_status": {"combat": {"current": "mon-2", "round": 1, "order": order}}}
        )
        said.add(ScriptedAgent().run_turn(turn, stub).messages[0].text)
    return said


def test_a_numbered_creature_is_looked_at_without_an_article():
    assert _looks("look at goblin 2", character_id=None) == {
        "The GM studies Goblin 2: unhurt.",
        "The GM looks Goblin 2 over: unhurt.",
    }
    assert _looks("look at goblin", character_id=None) == {
        "The GM studies the Goblin: unhurt.",
        "The GM looks the Goblin over: unhurt.",
    }


@pytest.mark.parametrize("status", ["dead"])
def test_a_dead_characters_player_is_told_what_they_see_without_the_character(status):
    assert _looks("look at goblin 2", character_id="pc-1", ash=status) == {
        "A look at Goblin 2: unhurt."
    }
