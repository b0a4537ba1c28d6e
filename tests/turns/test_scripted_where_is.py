""" "where is the goblin?", "how far away is goblin 2?": in combat, that creature's square on
the battle map and how many squares it is from the asker's character; a name nobody here has
is refused with those present, as for "look at"."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("where is the goblin?", "Goblin stands at (6, 1), 1 square from Ilsa."),
        ("how far away is goblin 2?", "Goblin 2 stands at (6, 0), 1 square from Ilsa."),
        ("where's goblin 2", "Goblin 2 stands at (6, 0), 1 square from Ilsa."),
        ("where is the dragon?",
         "I cannot find “the dragon” here. Present: Ilsa, Goblin 2, Goblin."),
    ],
)  # fmt: skip
def test_a_creature_asked_about_is_placed_on_the_map(live_domains, gm, player, text, reply):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    before = table.revision()
    run = table.run(player, text, job_id="where")
    assert run.texts == [(reply, "requester")]
    assert table.revision() == before


def test_the_gm_hears_the_square_alone(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    run = table.run(gm, "where is Ilsa?", job_id="where")
    assert run.texts == [("Ilsa stands at (5, 0) on the battle map.", "requester")]
