""" "can I kick the door?": a line asked about is offered only if it would be acted on. One
whose target is said in the fiction's words and is nobody here ("the door", "the tavern") is
answered as the line itself is (not understood: the GM rules on it), never offered rewritten
as an attack on a creature missing ("attack the door with a kick"); a near miss of a name
present is asked about as the line's is. Said of a creature here, the offer stays."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_help_with import _brams_turn
from tests.turns.test_scripted_things_not_creatures import TO_ATTACK, TO_HELP, TO_MOVE

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("can I kick the door?", TO_ATTACK),
        ("could I punch the wall?", TO_ATTACK),
        ("Can we walk to the tavern?", TO_MOVE),
    ],
)
def test_a_thing_asked_about_is_answered_as_the_line_is(live_domains, gm, player, text, reply):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    before = table.revision()
    run = table.run(player, text, job_id="asked")
    assert run.texts == [(reply, "requester")]
    assert run.output.suggestions == ()
    assert run.tools == ["combat_status"]
    assert table.revision() == before


def test_a_task_asked_about_is_answered_as_the_line_is(live_domains, gm, player):
    table = _brams_turn(gm, player)  # Bram, beside Ilsa, is up
    before = table.revision()
    run = table.run(player, "can I help Ilsa with the rope?", job_id="rope")
    assert run.texts == [(TO_HELP, "requester")]
    assert run.output.suggestions == ()
    assert "combat_action" not in run.tools
    assert table.revision() == before


def test_a_blow_at_a_creature_here_asked_about_is_offered(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, "can I kick the goblin?", job_id="asked")
    assert run.texts == [("To do it, say: attack the goblin with a kick.", "requester")]
    assert run.output.suggestions == ("attack the goblin with a kick",)
    assert run.tools == ["combat_status"]
    assert table.revision() == before


def test_a_near_miss_asked_about_is_asked_about_as_the_lines_is(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, "can I kick the gobin?", job_id="asked")
    assert run.texts == [
        (
            "I cannot find “the gobin” here. Did you mean: attack the goblin with a kick?",
            "requester",
        )
    ]
    assert run.output.suggestions == ("attack the goblin with a kick",)
    assert "attack" not in run.tools
    assert table.revision() == before
