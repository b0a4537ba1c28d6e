"""The GM knocks a creature unconscious and wakes it in the words a table uses; the rules make
it prone too, and it stays prone once awake."""

from __future__ import annotations

from typing import Any

import pytest

from apps.domains.client import principal_for
from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, ToolOutcome, TurnContext
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat
from tests.turns.test_scripted_conditions import _combatant

pytestmark = pytest.mark.django_db


class _Recorder:
    """A call_tool that answers from a table of structured results and keeps each call."""

    def __init__(self, results: dict[str, dict[str, Any]]) -> None:
        self.results = results
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, tool: str, arguments: Any) -> ToolOutcome:
        self.calls.append((tool, dict(arguments)))
        return ToolOutcome(tool=tool, step=len(self.calls), ok=True, structured=self.results[tool])


def _gm_says(text: str, conditions: list[str]) -> _Recorder:
    """The GM's turn in combat, answered as the rules would: `conditions` are the target's
    after the change."""
    turn = TurnContext(
        job_id="unconscious",
        system_id="dnd5e",
        phase="combat",
        role="gm",
        task="action",
        text=text,
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("combat_status", "condition_add", "condition_remove")
        ),
    )
    order = [_combatant("pc-1", "Ilsa", "pc"), _combatant("mon-2", "Goblin", "monster")]
    changed = {"target_id": "pc-1", "conditions": conditions}
    recorder = _Recorder(
        {
            "combat_status": {"combat": {"current": "mon-2", "order": order}},
            "condition_add": changed,
            "condition_remove": changed,
        }
    )
    ScriptedAgent().run_turn(turn, recorder)
    return recorder


@pytest.mark.parametrize(
    "text",
    [
        "knock Ilsa unconscious",
        "knock Ilsa out",
        "knock out Ilsa",
        "Ilsa falls unconscious",
        "Ilsa is knocked unconscious",
        "Ilsa is knocked out",
    ],
)
def test_the_gm_knocks_a_creature_unconscious_in_words(text):
    calls = _gm_says(text, ["prone", "unconscious"]).calls
    assert [c for c in calls if c[0] == "condition_add"] == [
        ("condition_add", {"target_id": "pc-1", "condition": "unconscious"})
    ]


@pytest.mark.parametrize(
    "text", ["wake Ilsa", "wake Ilsa up", "wake up Ilsa", "Ilsa wakes", "Ilsa wakes up"]
)
def test_the_gm_wakes_a_creature_in_words(text):
    calls = _gm_says(text, ["prone"]).calls
    assert [c for c in calls if c[0] == "condition_remove"] == [
        ("condition_remove", {"target_id": "pc-1", "condition": "unconscious"})
    ]


def test_knocked_down_is_still_prone():
    calls = _gm_says("knock Ilsa down", ["prone"]).calls
    assert [c for c in calls if c[0] == "condition_add"] == [
        ("condition_add", {"target_id": "pc-1", "condition": "prone"})
    ]


def _conditions(table: Any, character_id: str) -> list[str]:
    view = table.call(table.gm, "character_get", character_id=character_id)
    return view.structured["character"]["conditions"]


def test_a_creature_knocked_unconscious_falls_prone_and_wakes_still_prone(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    knocked = table.run(gm, "knock Ilsa unconscious", job_id="knock")
    assert knocked.texts == [("Ilsa is now unconscious and prone.", "trigger")]
    assert sorted(_conditions(table, ilsa)) == ["prone", "unconscious"]
    woken = table.run(gm, "wake Ilsa", job_id="wake")
    assert woken.texts == [("Ilsa is no longer unconscious, but still prone.", "trigger")]
    assert _conditions(table, ilsa) == ["prone"]
    again = table.run(gm, "wake Ilsa", job_id="wake-again")
    assert again.texts == [("That cannot happen: Ilsa is not unconscious.", "requester")]


def test_a_player_is_told_only_the_gm_knocks_out_or_wakes(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    knocked = table.run(player, "knock goblin 2 out", job_id="p-knock")
    assert knocked.texts == [("Only the GM can give a creature a condition.", "requester")]
    woken = table.run(player, "wake goblin 2", job_id="p-wake")
    assert woken.texts == [("Only the GM can remove a creature's condition.", "requester")]
    assert "condition_add" not in knocked.tools and "condition_remove" not in woken.tools
    assert table.revision() == before


def test_a_creature_at_0_hp_is_not_woken(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    hp = table.call(gm, "character_get", character_id=ilsa).structured["character"]["hp"]
    _gm_write(table, "damage_apply", target_id=ilsa, amount=hp["current"])  # down, not dead
    before = table.revision()
    refused = table.run(gm, "wake Ilsa", job_id="wake-down")
    assert refused.texts == [
        ("That cannot happen: a creature at 0 HP stays unconscious until healed.", "requester")
    ]
    assert table.revision() == before
    assert sorted(_conditions(table, ilsa)) == ["prone", "unconscious"]
