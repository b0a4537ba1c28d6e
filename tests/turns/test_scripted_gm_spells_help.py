"""A GM's help with spells listed the long rest alone. The rules cast only a player's spells (a
GM's "cast magic missile", "end concentration" are told that the caster's player does it), so
the GM's Spells section names what a GM does for a monster's spell: roll its dice, then damage
or heal, a concentrating target rolling its save. Each command it names is taken as listed."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_concentration_saves import _held, _party
from tests.turns.test_scripted_help_asked import help_reply

GM_SPELLS = (
    "Spells:\n"
    "- a monster's spell: roll its dice, then damage <target> N [<type>] (in combat as "
    "narration; a concentrating target rolls its save) or heal <target> N; players cast their "
    "own spells\n"
    "- long rest [for <name>] (as narration: hit points and spell slots back)\n"
    "- what spells does <name> have?, how many spell slots does <name> have left?\n"
    "Say “help” for every command."
)


@pytest.mark.parametrize("text", ["help spells", "help with magic", "help casting"])
def test_a_gms_help_with_spells_names_what_a_gm_does_for_a_monsters_spell(text):
    assert help_reply(text, role="gm") == [(GM_SPELLS, "requester")]


@pytest.mark.django_db
def test_a_monsters_spell_is_rolled_and_applied_as_the_help_says(live_domains, gm, player):
    table = _party(gm, player)  # Ash (a cleric) holds Shield of Faith on Bram

    rolled = table.run(gm, "roll 3d4+3 for the goblin's spell", job_id="roll")
    struck = table.run(gm, "damage Ash 9 fire", job_id="damage")
    healed = table.run(gm, "heal Ash 5", job_id="heal")
    rested = table.run(gm, "long rest", job_id="rest", task="narration")

    assert [run.texts for run in (rolled, struck, healed, rested)] == [
        [("The dice tumble (the goblin's spell): 3d4+3 = 14 (4 + 4 + 3 + 3).", "trigger")],
        [("Ash takes 9 fire damage. Ash rolls 16 against DC 10 and keeps concentrating on "
          "Shield of Faith.", "trigger")],
        [("Ash recovers 5 HP (now 20).", "trigger")],
        [("The party finishes a long rest: Ash 24/24 HP, spell slots back, Shield of Faith "
          "ends; Bram 12/12 HP; Wren 27/27 HP, spell slots back.", "trigger")],
    ]  # fmt: skip
    assert [run.tools[-1] for run in (rolled, struck, healed, rested)] == [
        "dice_roll",
        "damage_apply",
        "heal",
        "long_rest",
    ]
    assert _held(table) is None


@pytest.mark.django_db
def test_in_combat_a_monsters_spell_is_applied_from_the_narration(live_domains, gm, player):
    table = _party(gm, player)
    table.run(gm, "start combat with a goblin", job_id="start")

    struck = table.run(gm, "damage Ash 9 fire", job_id="damage", task="narration")
    healed = table.run(gm, "heal Ash 5", job_id="heal")

    assert [struck.texts, healed.texts] == [
        [("Ash takes 9 fire damage. Ash rolls 6 against DC 10 and loses concentration: Shield "
          "of Faith ends.", "trigger")],
        [("Ash recovers 5 HP (now 20).", "trigger")],
    ]  # fmt: skip
    assert _held(table) is None
