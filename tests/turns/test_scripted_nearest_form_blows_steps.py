""" "approach the altar", "head-butt the door", "I hit": a step or blow not understood (a
thing, not a creature, or nothing named) is told the nearest form, as "kick the door" and
"walk to the tavern" are ("To attack, say: …", "To move, say: …"), not the whole help. Hit
points are no blow."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_things_not_creatures import TO_ATTACK, TO_MOVE

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("approach the altar", TO_MOVE),
        ("Ilsa approaches the altar", TO_MOVE),
        ("Ilsa, approach the altar", TO_MOVE),
        ("head-butt the door", TO_ATTACK),
        ("I headbutt the wall", TO_ATTACK),
        ("Ilsa, head-butt the door", TO_ATTACK),
        ("I hit", TO_ATTACK),
        ("hit it", TO_ATTACK),
    ],
)
def test_a_step_or_blow_not_understood_is_told_its_form(live_domains, gm, player, text, reply):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    before = table.revision()
    run = table.run(player, text, job_id="form")
    assert run.texts == [(reply, "requester")]
    assert run.output.suggestions == ()
    assert "attack" not in run.tools and "combat_move" not in run.tools
    assert table.revision() == before
