"""A player casts a spell its character's class does not cast: a character with no spells is
told so, a caster of another class that the spell is not its own; either way nothing changes
and no GM ruling is promised."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def _table_as(gm, player, *, name, template):
    """The player's `name` of `template` (pc-1), bound to them, and the GM's Briar (pc-2)."""
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name=name, template=template)
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.call(gm, "character_create", name="Briar", template="rogue")
    table.run(gm, "set phase play", job_id="play")
    return table


@pytest.mark.parametrize(
    ("said", "answer"),
    [
        ("cast bless on Briar", "Ash has no spells to cast: Bless is a cleric's spell."),
        (
            "cast shield of faith on Briar",
            "Ash has no spells to cast: Shield of Faith is a cleric's spell.",
        ),
        (
            "I cast cure wounds on Briar",
            "Ash has no spells to cast: Cure Wounds is a cleric's spell. Your character can "
            "give a potion of healing instead (“heal Briar”).",
        ),
        (
            "cast fire bolt at Briar",
            "Ash has no spells to cast: Fire Bolt is a wizard's spell. Attack instead "
            "(“attack Briar”).",
        ),
    ],
)
def test_a_fighter_casting_is_told_it_has_no_spells(live_domains, gm, player, said, answer):
    table = _table_as(gm, player, name="Ash", template="fighter")
    before = table.revision()
    run = table.run(player, said, job_id="cast")
    assert run.texts == [(answer, "requester")]
    assert run.tools == ["character_get"] and table.revision() == before


def test_a_wizard_casting_bless_is_told_it_is_a_clerics_spell(live_domains, gm, player):
    table = _table_as(gm, player, name="Wren", template="wizard")
    before = table.revision()
    run = table.run(player, "cast bless on Briar", job_id="cast")
    assert run.texts == [("Wren cannot cast Bless: it is a cleric's spell.", "requester")]
    assert run.tools == ["character_get"] and table.revision() == before
