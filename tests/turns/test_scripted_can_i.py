""" "Can I attack the goblin?": a command asked about, not said, is offered as the command to
send (nothing is done on a question); one that only reads ("can I see my hp?") is answered.
Anything else asked with "can I" is the question it was; in either system."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("can I attack the goblin?", "attack the goblin"),
        ("Can I hit the goblin with my longsword", "attack the goblin with my longsword"),
        ("could I make a perception check?", "make a perception check"),
        ("may I roll a d20", "roll 1d20"),
        ("can i end my turn?", "end my turn"),
        ("Can we move to 3,4?", "move to 3,4"),
    ],
)
def test_a_dnd_command_asked_about_is_offered(live_domains, gm, player, text, command):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up
    before = table.revision()
    run = table.run(player, text, job_id="asked")
    assert run.texts == [(f"To do it, say: {command}.", "requester")]
    assert run.output.suggestions == (command,)
    assert run.tools == []
    assert table.revision() == before


def test_a_read_asked_about_is_answered(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(player, "can I see my hp?", job_id="hp")
    assert run.texts == [
        (
            "Ilsa (fighter, level 1): 12/12 HP, AC 16, speed 30 ft; attacks: Longsword, "
            "Unarmed Strike.",
            "requester",
        )
    ]


def test_a_narrative_command_asked_about_is_offered(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    run = table.run(player, "can I roll a d20 for luck?", job_id="asked")
    assert run.texts == [("To do it, say: roll 1d20 for luck.", "requester")]
    assert run.output.suggestions == ("roll 1d20 for luck",)
    assert run.tools == []
    assert table.revision() == before


def test_a_narrative_free_action_asked_about_is_still_the_oracles(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    run = table.run(player, "can I climb the wall?", job_id="climb")
    assert run.output.suggestions == ("ask the oracle “Can I climb the wall?”",)
    assert run.tools == []
