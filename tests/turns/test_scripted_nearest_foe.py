""" "attack the nearest goblin", "attack the closest enemy": the nearest foe (of that kind),
as a plain "attack" finds it, asked which when two are as near; never a creature called
"nearest"."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _attacks(table: Any, user: Any, text: str) -> tuple[list[dict[str, Any]], Any]:
    turn = table.context(user, text, job_id=text)
    caller = table.caller(user, turn)
    sent: list[dict[str, Any]] = []

    def recording(tool: str, arguments: Any) -> Any:
        if tool == "attack":
            sent.append(dict(arguments))
        return caller(tool, arguments)

    return sent, ScriptedAgent().run_turn(turn, recording)


@pytest.mark.parametrize("text", ["attack the nearest goblin", "attack the closest enemy!"])
def test_the_nearest_foe_is_asked_about_when_two_are_as_near(live_domains, gm, player, text):
    # Ilsa at (5, 0); the goblins at (6, 0) and (6, 1), both beside her.
    table, _start = dnd_table_in_combat(gm, player)
    sent, output = _attacks(table, player, text)
    assert sent == []
    assert [m.text for m in output.messages] == ["Which one does Ilsa attack: Goblin 2 or Goblin?"]
    assert output.suggestions == ("attack Goblin 2", "attack Goblin")


@pytest.mark.parametrize("text", ["attack the nearest goblin", "attack nearest foe"])
def test_the_nearest_foe_is_attacked(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    # At (5, 2) Ilsa is beside the goblin (mon-2, at 6, 1) alone; Goblin 2 (6, 0) is 2 away.
    table.run(player, "move to 5,2", job_id="beside-goblin")
    sent, _output = _attacks(table, player, text)
    assert [(a["attacker_id"], a["target_id"]) for a in sent] == [("pc-1", "mon-2")]


def test_no_foe_of_that_kind_is_answered_with_those_present(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    sent, output = _attacks(table, player, "attack the nearest orc")
    assert sent == []
    assert [m.text for m in output.messages] == [
        "I cannot find “the nearest orc” here. Present: Ilsa, Goblin 2, Goblin."
    ]
