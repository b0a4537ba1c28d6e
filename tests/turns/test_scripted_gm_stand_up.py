"""The GM standing up whoever is up goes through the rules a player's stand up goes through:
half its speed in movement on its own turn, and never while held, paralyzed or dying."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from apps.domains.registry import get_plugin
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


def _goblins_turn(table, gm, player):
    """Knock the goblin (mon-2) prone and play round 1 up to its turn."""
    table.run(gm, "knock mon-2 prone", job_id="knock")
    table.run(player, "end turn", job_id="p-end")
    table.run(gm, "end turn", job_id="g-end")  # Goblin 2's, then the goblin's


def test_the_gm_stands_a_monster_up_for_half_its_speed(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    _goblins_turn(table, gm, player)
    stood = table.run(gm, "stand up", job_id="g-stand")
    assert stood.tools[-2:] == ["stand_up", "combat_status"]  # the turn's options read again
    assert stood.texts == [("Goblin stands up, using 15 ft of movement (15 ft left).", "trigger")]


def test_the_gm_cannot_stand_up_a_monster_without_the_movement(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    _goblins_turn(table, gm, player)
    # The goblin (at 6, 1) crawls 2 squares: 20 of its 30 ft.
    assert table.run(gm, "move to 8,1", job_id="crawl").texts[0][0].startswith("Goblin crawls")
    before = table.revision()
    refused = table.run(gm, "stand up", job_id="g-stand")
    assert refused.texts == [
        (
            "That cannot happen: Goblin needs 15 ft of movement to stand up and has 10 ft left "
            "this turn.",
            "requester",
        )
    ]
    assert table.revision() == before


def test_the_gm_cannot_stand_up_a_paralyzed_monster(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(gm, "paralyze mon-2", job_id="paralyze")
    _goblins_turn(table, gm, player)
    refused = table.run(gm, "stand up", job_id="g-stand")
    assert refused.texts == [
        ("That cannot happen: Goblin cannot stand up while paralyzed.", "requester")
    ]
    conditions = table.call(gm, "character_get", character_id="mon-2").structured["character"][
        "conditions"
    ]
    assert conditions == ["paralyzed", "prone"]


def test_the_gm_cannot_stand_up_a_dying_character(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is up
    ilsa = table.characters[principal_for(player)]
    _gm_write(table, "damage_apply", target_id=ilsa, amount=12)  # to 0 HP: down and prone
    refused = table.run(gm, "stand", job_id="gm-stand")
    assert refused.texts == [
        ("That cannot happen: Ilsa cannot stand up while unconscious at 0 HP.", "requester")
    ]


def test_the_gms_combat_actions_offer_stand_up(live_domains):
    tools = get_plugin("dnd5e").facade_tools(phase="combat", role="gm", task="action")
    assert "stand_up" in tools and len(tools) == 16
