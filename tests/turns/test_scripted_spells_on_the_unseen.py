"""Spells at a creature the caster cannot see or cannot help: a Fire Bolt at a hidden or
invisible goblin says why it had disadvantage and nothing of where the goblin is, and Cure
Wounds or Healing Word on undead is refused in one sentence naming why."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write
from tests.turns.test_scripted_magic_missile import _wizards_table
from tests.turns.test_scripted_spellcasting import _clerics_table

pytestmark = pytest.mark.django_db


def _wren_fights(gm, player):
    """Wren (pc-1) at (5, 0), the Goblin (mon-3) at (6, 0), the Ogre (mon-2) at (6, 1)."""
    table = _wizards_table(gm, player)
    table.run(gm, "start combat", job_id="start")
    return table


def test_a_fire_bolt_at_a_hidden_goblin_says_only_that_it_is_hidden(live_domains, gm, player):
    table = _wren_fights(gm, player)
    table.run(gm, "end turn", job_id="end")  # the Goblin's turn
    hid = table.run(gm, "goblin hides", job_id="hide", task="narration")
    assert hid.texts[0][0].startswith("Goblin hides: Stealth 20 beats"), hid.texts
    table.run(gm, "end turn", job_id="end2")
    table.run(gm, "end turn", job_id="end3")  # Wren's turn

    run = table.run(player, "cast fire bolt at the goblin", job_id="bolt")

    assert run.texts == [
        (
            "Wren casts Fire Bolt at Goblin but misses (8 to hit). (Disadvantage: hostile "
            "within 5 ft, Goblin is hidden.)",
            "trigger",
        )
    ]


def test_a_fire_bolt_at_an_invisible_goblin_says_it_is_invisible(live_domains, gm, player):
    table = _wren_fights(gm, player)
    _gm_write(table, "condition_add", target_id="mon-3", condition="invisible")

    run = table.run(player, "cast fire bolt at the goblin", job_id="bolt")

    assert run.texts == [
        (
            "Wren casts Fire Bolt at Goblin but misses (8 to hit). (Disadvantage: hostile "
            "within 5 ft, Goblin is invisible.)",
            "trigger",
        )
    ]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("cast cure wounds on the skeleton", "Cure Wounds has no effect on undead or "
         "constructs, and Skeleton is undead."),
        ("cast healing word on the zombie", "Healing Word has no effect on undead or "
         "constructs, and Zombie is undead."),
    ],
)  # fmt: skip
def test_a_healing_spell_on_undead_is_refused_saying_why(live_domains, gm, player, text, said):
    table = _clerics_table(gm, player)
    _gm_write(table, "monster_spawn", monster_key="skeleton")
    _gm_write(table, "monster_spawn", monster_key="zombie")
    before = table.revision()

    run = table.run(player, text, job_id="cure")

    assert run.texts == [(f"That cannot happen: {said}", "requester")]
    assert table.revision() == before
