"""A player's cleric casts Bless through the rules (spell_cast with target_ids: a slot spent, up
to three creatures at 1st level and one more per slot level above, the caster one of them if
said; 1d4 on their attack rolls and saves while the cleric concentrates)."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def _party(gm, player):
    """The player's cleric Ash (pc-1), bound to them, and the GM's Bram (pc-2), Ilsa (pc-3) and
    Wren (pc-4)."""
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ash", template="cleric", level=3)
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.call(gm, "character_create", name="Bram", template="fighter")
    table.call(gm, "character_create", name="Ilsa", template="rogue")
    table.call(gm, "character_create", name="Wren", template="wizard")
    table.run(gm, "set phase play", job_id="play")
    return table


def _read(table, char_id):
    return table.call(table.gm, "character_get", character_id=char_id).structured["character"]


def _blessed(table, char_id):
    return [e["spell"] for e in _read(table, char_id).get("effects", [])] == ["bless"]


def test_a_cleric_blesses_two_allies_and_itself(live_domains, gm, player):
    table = _party(gm, player)
    run = table.run(player, "cast bless on Ilsa, Bram and me", job_id="bless")
    assert run.tools[-1] == "spell_cast"
    assert run.texts == [
        ("Ash casts Bless on Ilsa, Bram and Ash: each adds 1d4 to attack rolls and saving "
         "throws while Ash keeps concentrating. Ash has 3 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip
    assert _read(table, "pc-1")["concentration"]["target_ids"] == ["pc-3", "pc-2", "pc-1"]
    assert [_blessed(table, c) for c in ("pc-1", "pc-2", "pc-3", "pc-4")] == [
        True, True, True, False,
    ]  # fmt: skip


def test_bless_on_two_allies_leaves_the_caster_out(live_domains, gm, player):
    table = _party(gm, player)
    run = table.run(player, "cast bless on Ilsa and Bram", job_id="bless")
    assert run.texts == [
        ("Ash casts Bless on Ilsa and Bram: each adds 1d4 to attack rolls and saving throws "
         "while Ash keeps concentrating. Ash has 3 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip
    assert not _blessed(table, "pc-1")


def test_bless_on_one_ally_says_that_ally_adds_the_die(live_domains, gm, player):
    table = _party(gm, player)
    run = table.run(player, "cast bless on Bram", job_id="bless")
    assert run.texts == [
        ("Ash casts Bless on Bram: Bram adds 1d4 to attack rolls and saving throws while Ash "
         "keeps concentrating. Ash has 3 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip


@pytest.mark.parametrize("said", ["cast bless", "I cast bless", "cast bless on myself"])
def test_bless_said_on_no_one_or_on_me_blesses_the_caster(live_domains, gm, player, said):
    table = _party(gm, player)
    run = table.run(player, said, job_id="self")
    assert run.texts == [
        ("Ash casts Bless: Ash adds 1d4 to attack rolls and saving throws while Ash keeps "
         "concentrating. Ash has 3 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip
    assert _read(table, "pc-1")["concentration"]["target_ids"] == ["pc-1"]


def test_a_2nd_level_bless_takes_a_fourth_creature(live_domains, gm, player):
    table = _party(gm, player)
    run = table.run(player, "cast bless on Ilsa, Bram, Wren and me at level 2", job_id="bless")
    assert run.texts == [
        ("Ash casts Bless on Ilsa, Bram, Wren and Ash: each adds 1d4 to attack rolls and "
         "saving throws while Ash keeps concentrating. Ash has 1 level 2 spell slot left.",
         "trigger"),
    ]  # fmt: skip
    assert all(_blessed(table, c) for c in ("pc-1", "pc-2", "pc-3", "pc-4"))


def test_four_creatures_at_1st_level_are_refused_with_the_rules_words(live_domains, gm, player):
    table = _party(gm, player)
    before = table.revision()
    run = table.run(player, "cast bless on Ilsa, Bram, Wren and me", job_id="bless")
    assert run.texts == [
        ("That cannot happen: Bless with a level 1 slot targets up to 3 creatures, not 4 (one "
         "more per slot level above 1st).", "requester"),
    ]  # fmt: skip
    assert table.revision() == before


def test_bless_ends_shield_of_faith_and_shield_of_faith_ends_bless(live_domains, gm, player):
    table = _party(gm, player)
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    run = table.run(player, "cast bless on Ilsa and Bram", job_id="bless")
    assert run.texts == [
        ("Ash casts Bless on Ilsa and Bram: each adds 1d4 to attack rolls and saving throws "
         "while Ash keeps concentrating. Shield of Faith on Bram ends: Ash concentrates on one "
         "spell at a time. Ash has 2 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip
    run = table.run(player, "cast shield of faith", job_id="ward2")
    ac = _read(table, "pc-1")["ac"]
    assert run.texts == [
        (f"Ash casts Shield of Faith: a shimmering field gives Ash +2 AC ({ac - 2} → {ac}) "
         "while Ash keeps concentrating. Bless on Ilsa and Bram ends: Ash concentrates on one "
         "spell at a time. Ash has 1 level 1 spell slot left.", "trigger"),
    ]  # fmt: skip
    assert not _blessed(table, "pc-2") and not _blessed(table, "pc-3")


def test_the_gm_is_told_the_clerics_player_casts_bless(live_domains, gm, player):
    table = _party(gm, player)
    before = table.revision()
    run = table.run(gm, "cast bless on Ilsa and Bram", job_id="gm")
    assert run.texts == [
        ("The rules here cast Bless for a player's cleric: its player casts it "
         "(“cast bless on Ilsa and Bram”).", "requester"),
    ]  # fmt: skip
    assert run.tools == [] and table.revision() == before
