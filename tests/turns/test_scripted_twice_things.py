""" "kick the door twice": a line said twice is offered once only if it would be acted on. One
whose target is nobody here is answered as the line itself is: not understood for a thing said
in the fiction's words ("the door", "the tavern"), refused with those present after an
attack's words ("attack the orc"), asked about for a near miss ("the gobin"). Said of a
creature here, the line once is still offered."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_things_not_creatures import TO_ATTACK, TO_MOVE

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "reply", "suggestions"),
    [
        ("kick the door twice", TO_ATTACK, ()),
        ("Ilsa, kick the door twice", TO_ATTACK, ()),
        ("walk to the tavern 3 times", TO_MOVE, ()),
        (
            "attack the orc twice",
            "I cannot find “the orc” here. Present: Ilsa, Goblin 2, Goblin.",
            ("attack goblin 2", "end turn"),
        ),
        (
            "kick the gobin twice",
            "I cannot find “the gobin” here. Did you mean: attack the goblin with a kick?",
            ("attack the goblin with a kick",),
        ),
    ],
)
def test_a_line_said_twice_of_nobody_here_is_answered_as_the_line_is(
    live_domains, gm, player, text, reply, suggestions
):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    before = table.revision()
    run = table.run(player, text, job_id="twice")
    assert run.texts == [(reply, "requester")]
    assert run.output.suggestions == suggestions
    assert "attack" not in run.tools and "combat_move" not in run.tools
    assert table.revision() == before


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("kick the goblin twice", "kick the goblin"),
        ("walk to the goblin twice", "walk to the goblin"),
    ],
)
def test_a_line_said_twice_of_a_creature_here_is_offered_once(
    live_domains, gm, player, text, command
):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="twice")
    assert run.texts == [(f"One at a time: say “{command}”, then say it again.", "requester")]
    assert run.output.suggestions == (command,)
    assert run.tools == ["combat_status"]
    assert table.revision() == before
