"""A short rest through the scripted GM: a player's bound character spends Hit Dice (the rules
roll each die + CON and heal that much); the GM's short rest for a named character is
narrated, as the long rest is."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write

pytestmark = pytest.mark.django_db


def _fighters_table(gm, player):
    """The player's level 3 fighter Ilsa (pc-1, 28 HP, 3d10 Hit Dice, CON +2), bound to them,
    and the GM's wizard Wren (pc-2), in play."""
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="fighter", level=3)
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.call(gm, "character_create", name="Wren", template="wizard")
    table.run(gm, "set phase play", job_id="play")
    return table


def _character(table, char_id="pc-1"):
    return table.call(table.gm, "character_get", character_id=char_id).structured["character"]


def test_a_player_spends_hit_dice_on_a_short_rest(live_domains, gm, player):
    table = _fighters_table(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-1", amount=20)
    run = table.run(player, "I take a short rest and spend 2 hit dice", job_id="rest")
    assert run.tools == ["short_rest"]
    assert run.texts == [
        ("Ilsa spends 2 Hit Dice (2d10+4 = 14) and recovers 14 HP (now 22/28); 1 Hit Die "
         "left.", "trigger"),
    ]  # fmt: skip
    ilsa = _character(table)
    assert (ilsa["hp"]["current"], ilsa["hit_dice"]) == (22, {"die": 10, "current": 1, "max": 3})


@pytest.mark.parametrize("said", ["short rest, spend a hit die", "spend 1 hit die"])
def test_one_hit_die_said_either_way(live_domains, gm, player, said):
    table = _fighters_table(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-1", amount=20)
    run = table.run(player, said, job_id="rest")
    assert run.tools == ["short_rest"]
    assert run.texts == [
        ("Ilsa spends 1 Hit Die (1d10+2 = 6) and recovers 6 HP (now 14/28); 2 Hit Dice left.",
         "trigger"),
    ]  # fmt: skip


def test_the_gm_short_rest_is_narrated(live_domains, gm, player):
    table = _fighters_table(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-1", amount=20)
    refused = table.run(gm, "short rest for Ilsa, 2 hit dice", job_id="action")
    assert refused.texts == [
        ("Send “short rest for <name>, N hit dice” as narration: the rules take a short rest "
         "from the GM's narration.", "requester"),
    ]  # fmt: skip
    assert refused.tools == []
    run = table.run(gm, "short rest for Ilsa, 2 hit dice", job_id="rest", task="narration")
    assert run.tools[-1] == "short_rest"
    assert run.texts == [
        ("Ilsa spends 2 Hit Dice (2d10+4 = 14) and recovers 14 HP (now 22/28); 1 Hit Die "
         "left.", "trigger"),
    ]  # fmt: skip


def test_a_refused_rest_says_why_and_changes_nothing(live_domains, gm, player):
    table = _fighters_table(gm, player)
    before = table.revision()
    run = table.run(player, "short rest, spend a hit die", job_id="full")
    assert run.texts == [
        ("That cannot happen: Ilsa is already at full hit points (28/28).", "requester")
    ]
    assert table.revision() == before
    _gm_write(table, "damage_apply", target_id="pc-1", amount=5)
    before = table.revision()
    run = table.run(player, "spend 4 hit dice", job_id="many")
    assert run.texts == [
        ("That cannot happen: Ilsa has 3 of 3 Hit Dice left, not the 4 asked.", "requester")
    ]
    assert table.revision() == before


def test_no_short_rest_in_combat(live_domains, gm, player):
    table = _fighters_table(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-1", amount=5)
    table.run(gm, "Start combat with a goblin", job_id="start")
    before = table.revision()
    run = table.run(player, "short rest, spend a hit die", job_id="fight")
    assert run.texts == [("You cannot take a short rest in the combat phase.", "requester")]
    assert "short_rest" not in run.tools and table.revision() == before
