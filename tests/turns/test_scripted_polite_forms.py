"""A command said the way a table talks, politely or as a plan ("I would like to …", "I'm
going to …", "please …", "… please", "ok, …"), is that command, in either system."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db

ATTACK = ("attack", {"attacker_id": "pc-1", "target_id": "mon-2"})


def _sent(table, user, text):
    """The writes and rolls one turn sends, with their arguments, and the run."""
    turn = table.context(user, text, job_id="polite")
    caller = table.caller(user, turn)
    sent = []

    def recording(tool, arguments):
        if tool not in ("combat_status", "campaign_get", "character_get"):
            sent.append((tool, dict(arguments)))
        return caller(tool, arguments)

    return sent, ScriptedAgent().run_turn(turn, recording)


@pytest.mark.parametrize(
    "text",
    [
        "I would like to attack the goblin",
        "I'm going to attack the goblin.",
        "I’m going to attack the goblin",
        "I am going to attack the goblin!",
        "I'm gonna attack the goblin",
        "I wanna attack the goblin",
        "I’d like to attack the goblin",
        "please attack the goblin",
        "Attack the goblin, please!",
        "ok, attack the goblin",
        "Okay attack the goblin",
    ],
)
def test_a_polite_dnd_command_is_that_command(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    calls, output = _sent(table, player, text)
    assert calls == [ATTACK]
    assert output.declined is False


@pytest.mark.parametrize("text", ["end turn please", "ok end my turn", "I'm going to pass"])
def test_a_polite_end_of_turn_ends_it(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)
    calls, _output = _sent(table, player, text)
    assert calls == [("combat_end_turn", {"character_id": "pc-1"})]


@pytest.mark.parametrize(
    "text", ["I would like to roll 2d6", "please roll 2d6", "roll 2d6 please", "ok, roll 2d6"]
)
def test_a_polite_narrative_roll_is_that_roll(live_domains, gm, player, text):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    calls, _output = _sent(table, player, text)
    assert calls == [("dice_roll", {"expression": "2d6"})]
