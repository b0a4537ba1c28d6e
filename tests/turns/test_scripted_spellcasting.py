"""A player's cleric casts Cure Wounds and Healing Word through the rules (spell_cast: a slot
spent, the healing rolled), at the slot level said; the GM's long rest gives slots and hit
points back."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write

pytestmark = pytest.mark.django_db


def _clerics_table(gm, player, *, level: int = 3):
    """The player's cleric Ilsa (pc-1), bound to them, and the GM's fighter Bram (pc-2)."""
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="cleric", level=level)
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.call(gm, "character_create", name="Bram", template="fighter")
    table.run(gm, "set phase play", job_id="play")
    return table


def _slots(table, char_id="pc-1"):
    return table.call(table.gm, "character_get", character_id=char_id).structured["character"][
        "spell_slots"
    ]


def test_a_cleric_casts_cure_wounds_on_an_ally(live_domains, gm, player):
    table = _clerics_table(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-2", amount=6)
    run = table.run(player, "I cast cure wounds on Bram", job_id="cure")
    # The caster's class, then the table's names, then the cast.
    assert run.tools == [
        "character_get", "campaign_get", "character_get", "character_get", "spell_cast",
    ]  # fmt: skip
    assert run.texts == [
        ("Ilsa casts Cure Wounds on Bram (1d8+2 = 6). Bram recovers 6 HP (now 12). Ilsa has "
         "3 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip
    assert _slots(table)["1"] == {"current": 3, "max": 4}


def test_a_slot_level_said_is_the_slot_spent(live_domains, gm, player):
    table = _clerics_table(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-1", amount=10)
    run = table.run(player, "cast healing word on me at 2nd level", job_id="word")
    assert run.texts == [
        ("Ilsa casts Healing Word (2d4+2 = 10). Ilsa recovers 10 HP (now 24). Ilsa has 1 "
         "level 2 spell slot left.", "trigger"),
    ]  # fmt: skip
    assert run.tools[-1] == "spell_cast"
    assert _slots(table)["2"] == {"current": 1, "max": 2}


def test_a_cleric_without_a_slot_left_is_told_so_and_nothing_changes(live_domains, gm, player):
    table = _clerics_table(gm, player, level=1)
    for job in ("one", "two"):
        _gm_write(table, "damage_apply", target_id="pc-2", amount=4)
        table.run(player, "I cast healing word on Bram", job_id=job)
    _gm_write(table, "damage_apply", target_id="pc-2", amount=4)
    before = table.revision()
    run = table.run(player, "I cast cure wounds on Bram", job_id="none")
    assert run.texts == [
        ("That cannot happen: Ilsa has no level 1 spell slot left (0 of 2).", "requester")
    ]
    assert table.revision() == before


def test_the_gm_long_rest_is_narrated(live_domains, gm, player):
    table = _clerics_table(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-2", amount=6)
    table.run(player, "I cast cure wounds on Bram", job_id="cure")
    run = table.run(gm, "we take a long rest", job_id="rest", task="narration")
    assert run.tools == ["long_rest"]
    assert run.texts == [
        ("The party finishes a long rest: Ilsa 24/24 HP, spell slots back; Bram 12/12 HP.",
         "trigger"),
    ]  # fmt: skip
    assert _slots(table)["1"] == {"current": 4, "max": 4}
    refused = table.run(gm, "long rest", job_id="action")
    assert refused.texts == [
        ("Send “long rest” as narration: the rules take a long rest from the GM's narration.",
         "requester"),
    ]  # fmt: skip
    assert refused.tools == []
    player_rest = table.run(player, "long rest", job_id="mine")
    assert player_rest.texts == [("Only the GM can call a long rest.", "requester")]


def test_a_wizard_is_told_what_the_table_can_do_and_nothing_changes(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Wren", template="wizard")
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.run(gm, "set phase play", job_id="play")
    _gm_write(table, "damage_apply", target_id="pc-1", amount=3)
    before = table.revision()
    run = table.run(player, "cast cure wounds on me", job_id="wizard")
    assert run.texts == [
        ("Wren cannot cast Cure Wounds: it is a cleric's spell. Your character can give a "
         "potion of healing instead (“heal me”).", "requester"),
    ]  # fmt: skip
    assert run.tools == ["character_get"] and table.revision() == before


def test_a_spell_the_rules_do_not_cast_is_the_gms_to_rule_on(live_domains, gm, player):
    table = _clerics_table(gm, player)
    before = table.revision()
    run = table.run(player, "cast mass healing word on the party", job_id="mass")
    assert run.texts == [
        ("The rules here do not cast Mass Healing Word: the GM rules on it and heals the hit "
         "points it restores. Your character can give a potion of healing instead (“heal the "
         "party”).", "requester"),
    ]  # fmt: skip
    assert run.tools == [] and table.revision() == before


def test_in_combat_cure_wounds_takes_the_clerics_action(live_domains, gm, player):
    table = _clerics_table(gm, player)
    _gm_write(table, "damage_apply", target_id="pc-2", amount=6)
    table.run(gm, "start combat with a goblin", job_id="start")
    current = table.call(gm, "combat_status").structured["combat"]["current"]
    while current != "pc-1":
        _gm_write(table, "combat_end_turn")
        current = table.call(gm, "combat_status").structured["combat"]["current"]
    cast = table.run(player, "I cast cure wounds on Bram", job_id="cure")
    # In combat the caster and the roster are the fight's; after the cast, options are reread.
    assert cast.tools == ["combat_status", "spell_cast", "combat_status"]
    # Healing stops at the maximum: 8 rolled, 6 recovered.
    assert cast.texts == [
        ("Ilsa casts Cure Wounds on Bram (1d8+2 = 8). Bram recovers 6 HP (now 12). Ilsa has "
         "3 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip
    budget = {
        e["id"]: e["budget"] for e in table.call(gm, "combat_status").structured["combat"]["order"]
    }["pc-1"]
    assert (budget["action"], budget["bonus_action"]) == (0, 1)
    _gm_write(table, "damage_apply", target_id="pc-2", amount=2)
    again = table.run(player, "I cast cure wounds on Bram", job_id="again")
    assert again.texts == [("That cannot happen: Ilsa has no action left this turn.", "requester")]
