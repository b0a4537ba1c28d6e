"""Concentration in what the scripted GM reads back: a long rest says the spell it ended, and
"show my character" names the spell a character concentrates on and the ward in its AC."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write
from tests.turns.test_scripted_shield_of_faith import _ash_and_bram

pytestmark = pytest.mark.django_db


def test_a_long_rest_says_the_concentration_spell_it_ended(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    run = table.run(gm, "we take a long rest", job_id="rest", task="narration")
    assert run.texts == [
        ("The party finishes a long rest: Ash 24/24 HP, spell slots back, Shield of Faith ends; "
         "Bram 12/12 HP.", "trigger"),
    ]  # fmt: skip
    ash = table.call(gm, "character_get", character_id="pc-1").structured["character"]
    assert "concentration" not in ash


def test_my_character_names_its_concentration(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    before = table.run(player, "show my character", job_id="before").texts[0][0]
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    run = table.run(player, "show my character", job_id="after")
    assert run.texts == [(before[:-1] + "; concentrating on Shield of Faith on Bram.", "requester")]


def test_my_character_warded_by_itself_shows_the_ward_in_its_ac(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    table.run(player, "cast shield of faith", job_id="ward")
    run = table.run(player, "what's my AC?", job_id="ac")
    assert run.texts == [
        ("Ash (cleric, level 3): 24/24 HP, AC 20 (Shield of Faith +2), speed 30 ft; attacks: "
         "Mace, Unarmed Strike; concentrating on Shield of Faith.", "requester"),
    ]  # fmt: skip


def test_a_short_rest_says_the_concentration_spell_it_ended(live_domains, gm, player):
    table = _ash_and_bram(gm, player)
    # Hurt first: damage while concentrating would call for a concentration save.
    _gm_write(table, "damage_apply", target_id="pc-1", amount=10)
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    run = table.run(player, "I take a short rest and spend 1 hit die", job_id="rest")
    assert run.tools == ["short_rest"]
    assert run.texts == [
        ("Ash spends 1 Hit Die (1d8+2 = 6) and recovers 6 HP (now 20/24); 2 Hit Dice left. "
         "Shield of Faith ends.", "trigger"),
    ]  # fmt: skip
    ash = table.call(gm, "character_get", character_id="pc-1").structured["character"]
    assert "concentration" not in ash
