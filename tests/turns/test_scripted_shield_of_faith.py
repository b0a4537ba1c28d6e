"""A player's cleric casts Shield of Faith through the rules (spell_cast: a slot spent, +2 AC
on the warded creature while the cleric concentrates, a bonus action in combat); a second
concentration spell ends the first, and the room hears both."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write

pytestmark = pytest.mark.django_db


def _ash_and_bram(gm, player):
    """The player's cleric Ash (pc-1), bound to them, and the GM's fighter Bram (pc-2)."""
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ash", template="cleric", level=3)
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.call(gm, "character_create", name="Bram", template="fighter")
    table.run(gm, "set phase play", job_id="play")
    return table


def _read(table, char_id):
    return table.call(table.gm, "character_get", character_id=char_id).structured["character"]


def test_a_cleric_casts_shield_of_faith_on_an_ally(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    run = table.run(player, "cast shield of faith on Bram", job_id="ward")
    assert run.tools[-1] == "spell_cast"
    assert run.texts == [
        ("Ash casts Shield of Faith on Bram: a shimmering field gives Bram +2 AC (16 → 18) "
         "while Ash keeps concentrating. Ash has 3 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip
    assert _read(table, "pc-2")["ac"] == 18
    assert _read(table, "pc-1")["concentration"]["target_id"] == "pc-2"


@pytest.mark.parametrize("said", ["cast shield of faith on me", "I cast shield of faith"])
def test_shield_of_faith_said_on_me_or_on_no_one_wards_the_caster(live_domains, gm, player, said):
    table = _ash_and_bram(gm, player)
    ac = _read(table, "pc-1")["ac"]
    run = table.run(player, said, job_id="self")
    assert run.texts == [
        (f"Ash casts Shield of Faith: a shimmering field gives Ash +2 AC ({ac} → {ac + 2}) "
         "while Ash keeps concentrating. Ash has 3 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip


def test_a_second_shield_of_faith_ends_the_first_and_says_so(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    table.run(player, "cast shield of faith on Bram", job_id="first")
    ac = _read(table, "pc-1")["ac"]
    run = table.run(player, "cast shield of faith on myself", job_id="second")
    assert run.texts == [
        (f"Ash casts Shield of Faith: a shimmering field gives Ash +2 AC ({ac} → {ac + 2}) "
         "while Ash keeps concentrating. Shield of Faith on Bram ends: Ash concentrates on one "
         "spell at a time. Ash has 2 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip
    assert _read(table, "pc-2")["ac"] == 16


def test_in_combat_shield_of_faith_takes_the_bonus_action(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    table.run(gm, "start combat with a goblin", job_id="start")
    current = table.call(gm, "combat_status").structured["combat"]["current"]
    while current != "pc-1":
        _gm_write(table, "combat_end_turn")
        current = table.call(gm, "combat_status").structured["combat"]["current"]
    run = table.run(player, "cast shield of faith on Bram", job_id="ward")
    assert run.texts[0] == (
        "Ash casts Shield of Faith on Bram: a shimmering field gives Bram +2 AC (16 → 18) "
        "while Ash keeps concentrating. Ash has 3 level 1 spell slots left.",
        "trigger",
    )
    budget = {
        e["id"]: e["budget"] for e in table.call(gm, "combat_status").structured["combat"]["order"]
    }["pc-1"]
    assert (budget["action"], budget["bonus_action"]) == (1, 0)


def test_the_gm_is_told_the_clerics_player_casts_it_and_nothing_changes(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    before = table.revision()
    run = table.run(gm, "cast shield of faith on Bram", job_id="gm")
    assert run.texts == [
        ("The rules here cast Shield of Faith for a player's cleric: its player casts it "
         "(“cast shield of faith on Bram”).", "requester"),
    ]  # fmt: skip
    assert run.tools == [] and table.revision() == before
