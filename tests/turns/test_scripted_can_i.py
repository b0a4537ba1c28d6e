""" "Can I attack the goblin?": a command asked about, not said, is offered as the command to
send (nothing is done on a question); one that only reads ("can I see my hp?") is answered.
Anything else asked with "can I" is the question it was; in either system."""

from __future__ import annotations

import pytest

from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_magic_missile import _wizards_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "command", "tools"),
    [
        # One that names whom it strikes reads who is here (once), to offer only what would
        # be acted on; one that names no one reads nothing.
        ("can I attack the goblin?", "attack the goblin", ["combat_status"]),
        ("Can I hit the goblin with my longsword", "attack the goblin with my longsword",
         ["combat_status"]),
        ("could I make a perception check?", "make a perception check", []),
        ("may I roll a d20", "roll 1d20", []),
        ("can i end my turn?", "end my turn", []),
        ("Can we move to 3,4?", "move to 3,4", []),
    ],
)  # fmt: skip
def test_a_dnd_command_asked_about_is_offered(live_domains, gm, player, text, command, tools):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up
    before = table.revision()
    run = table.run(player, text, job_id="asked")
    assert run.texts == [(f"To do it, say: {command}.", "requester")]
    assert run.output.suggestions == (command,)
    assert run.tools == tools
    assert table.revision() == before


@pytest.mark.parametrize(
    ("text", "said", "named"),
    [
        ("can I attack the orc?", "attack the orc", "the orc"),
        ("Could I hit the dragon with my longsword?", "hit the dragon with my longsword",
         "the dragon"),
        ("can I move next to the orc?", "move next to the orc", "the orc"),
    ],
)  # fmt: skip
def test_a_command_asked_about_of_nobody_here_is_refused_as_the_command(
    live_domains, gm, player, text, said, named
):
    """Offered, "attack the orc" would be refused: the question is answered as it would be."""
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up
    before = table.revision()
    run = table.run(player, text, job_id="asked")
    assert run.texts == [
        (f"I cannot find “{named}” here. Present: Ilsa, Goblin 2, Goblin.", "requester")
    ]
    assert run.output.suggestions == ("attack goblin 2", "end turn")
    assert run.output.help_only is False
    assert run.tools == ["combat_status"]
    assert table.revision() == before
    sent = table.run(player, said, job_id="said")
    assert (sent.texts, sent.output.suggestions) == (run.texts, run.output.suggestions)


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


def test_out_of_combat_a_command_asked_about_reads_as_the_command_does(live_domains, gm, player):
    """Out of combat who is here is the campaign's and each one's sheet: the question reads
    them as the command would, and is answered as it would be."""
    table = _wizards_table(gm, player)  # Wren, an ogre and a goblin, in play
    before = table.revision()
    run = table.run(player, "can I attack the orc?", job_id="asked")
    assert run.texts == [
        ("I cannot find “the orc” here. Present: Ogre, Goblin, Wren.", "requester")
    ]
    assert run.tools == ["campaign_get", "character_get", "character_get", "character_get"]
    assert table.revision() == before
    sent = table.run(player, "attack the orc", job_id="said")
    assert (sent.texts, sent.tools) == (run.texts, run.tools)
