""" "what spells does Ash have?", "Ash's spells", "what can Ash cast?": the named character's
spells and slots left, read as "what spells do I have?" reads the asker's own, to the one who
asks. The GM reads anyone's; a player reads what the rules show them (another character's
spells, never a monster's stat block)."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db

WIZARD = (
    "Ash's spells: Fire Bolt (cantrip), Magic Missile (level 1). Spell slots left: level 1: 4 "
    "of 4, level 2: 2 of 2."
)
CLERIC = (
    "Ilsa's spells: Sacred Flame (cantrip), Bless (level 1), Cure Wounds (level 1), Healing "
    "Word (level 1), Shield of Faith (level 1). Spell slots left: level 1: 4 of 4, level 2: 2 "
    "of 2."
)


def _table(gm, player):
    """The player's cleric Ilsa (pc-1), bound to them, and the GM's wizard Ash (pc-2)."""
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template="cleric", level=3)
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.call(gm, "character_create", name="Ash", template="wizard", level=3)
    table.run(gm, "set phase play", job_id="play")
    return table


ASKED_OF_ASH = [
    "what spells does Ash have?",
    "What spells does Ash know?",
    "which spells can Ash cast?",
    "what can Ash cast?",
    "Ash's spells",
    "what are Ash's spells?",
    "show Ash's spell slots",
    "how many spell slots does Ash have left?",
]


@pytest.mark.parametrize("text", ASKED_OF_ASH)
def test_the_gm_asking_about_a_characters_spells_reads_them(live_domains, gm, player, text):
    table = _table(gm, player)
    before = table.revision()
    run = table.run(gm, text, job_id="spells")
    assert run.texts == [(WIZARD, "requester")]
    assert run.tools[-1] == "character_get" and table.revision() == before


def test_the_gm_asking_about_the_players_character_reads_its_spells(live_domains, gm, player):
    table = _table(gm, player)
    run = table.run(gm, "what spells does Ilsa have?", job_id="spells")
    assert run.texts == [(CLERIC, "requester")]


@pytest.mark.parametrize("text", ["what spells does Ash have?", "Ash's spells"])
def test_a_player_asking_about_another_characters_spells_reads_what_the_rules_show(
    live_domains, gm, player, text
):
    table = _table(gm, player)
    before = table.revision()
    run = table.run(player, text, job_id="spells")
    assert run.texts == [(WIZARD, "requester")]
    assert table.revision() == before


@pytest.mark.parametrize("text", ["what spells does Ilsa have?", "what can I cast?"])
def test_a_player_naming_their_own_character_reads_its_spells(live_domains, gm, player, text):
    table = _table(gm, player)
    run = table.run(player, text, job_id="spells")
    assert run.texts == [(CLERIC, "requester")]


def test_the_gm_asking_about_a_fighters_spells_is_told_it_has_none(live_domains, gm, player):
    table = _table(gm, player)
    table.call(gm, "character_create", name="Briar", template="fighter")
    run = table.run(gm, "what spells does Briar have?", job_id="spells")
    assert run.texts == [("Briar knows no spells and has no spell slots.", "requester")]


def test_a_player_asking_about_a_monsters_spells_is_not_shown_its_stat_block(
    live_domains, gm, player
):
    table = _table(gm, player)
    table.run(gm, "Start combat with a goblin", job_id="start")
    before = table.revision()
    run = table.run(player, "what spells does the goblin have?", job_id="spells")
    assert run.texts == [("Goblin: its spells are the GM's to know.", "requester")]
    assert "character_get" not in run.tools and table.revision() == before


def test_asking_about_a_name_nobody_has_says_who_is_here(live_domains, gm, player):
    table = _table(gm, player)
    run = table.run(gm, "what spells does Zed have?", job_id="spells")
    assert run.texts == [("I cannot find “Zed” here. Present: Ilsa, Ash.", "requester")]
