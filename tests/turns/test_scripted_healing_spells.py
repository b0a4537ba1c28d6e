""" "I cast cure wounds on Ilsa", "cast healing word on me", "heal Ilsa with cure wounds": read
as a healing spell, never as an attack named "cure wounds". A player's cleric casts it
(tests/turns/test_scripted_spellcasting.py); anyone else is answered with what the table can
do instead (the GM heals the amount the spell rolled; a player's character gives a potion)."""

from __future__ import annotations

import pytest

from apps.turns.agents import scripted as s
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "spell", "target"),
    [
        ("I cast cure wounds on Ilsa", "cure wounds", "Ilsa"),
        ("cast Healing Word on me", "Healing Word", "me"),
        ("I cast cure wounds", "cure wounds", None),
        ("heal Ilsa with cure wounds", "cure wounds", "Ilsa"),
        ("I heal Bram with healing word", "healing word", "Bram"),
        ("cast mass healing word on the party", "mass healing word", "the party"),
    ],
)
def test_a_healing_spell_said_is_read_as_one(text, spell, target):
    intent, match = s._parse("dnd5e", text)
    assert intent is not None and intent.handler is s.dnd_healing_spell, text
    assert (match["spell"], match["target"]) == (spell, target)


def test_an_attack_spell_cast_at_a_foe_is_still_an_attack():
    # One the rules do not cast themselves (Fire Bolt they do: test_scripted_cantrips).
    intent, match = s._parse("dnd5e", "I cast ray of frost at the goblin")
    assert intent is not None and intent.handler is s.dnd_attack
    assert (match["target"], match["weapon"]) == ("the goblin", "ray of frost")


def test_a_fighter_casting_cure_wounds_is_told_what_the_table_can_do(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1), a fighter, is up
    _gm_write(table, "damage_apply", target_id="pc-1", amount=5)
    before = table.revision()

    run = table.run(player, "I cast cure wounds on Ilsa", job_id="cure")

    assert run.texts == [
        (
            "Ilsa has no spells to cast: Cure Wounds is a cleric's spell. Your character can "
            "give a potion of healing instead (“heal Ilsa”).",
            "requester",
        )
    ]
    assert not {"attack", "heal", "spell_cast"} & set(run.tools) and table.revision() == before


def test_the_gm_casting_healing_word_is_told_to_heal_the_amount(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()

    run = table.run(gm, "cast healing word on Ilsa", job_id="word")

    assert run.texts == [
        (
            "The rules here cast healing spells for a player's cleric: roll Healing Word and "
            "heal the hit points it restores (“heal Ilsa 5”).",
            "requester",
        )
    ]
    assert not {"attack", "heal"} & set(run.tools) and table.revision() == before
