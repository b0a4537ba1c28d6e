""" "what spells do I have?", "how many spell slots do I have left?", "how many spell slots?":
the spells the character knows with their level, and its slots left per level, from its read,
to the one who asks."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write

pytestmark = pytest.mark.django_db

CLERIC = (
    "Ilsa's spells: Sacred Flame (cantrip), Bless (level 1), Cure Wounds (level 1), Healing "
    "Word (level 1), Shield of Faith (level 1). Spell slots left: level 1: 3 of 4, level 2: 2 "
    "of 2."
)


def _table(gm, player, template):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ilsa", template=template, level=3)
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.run(gm, "set phase play", job_id="play")
    return table


@pytest.mark.parametrize(
    "text",
    [
        "what spells do I have?",
        "which spells can I cast?",
        "how many spell slots do I have left?",
        "what are my spells?",
        "show my spell slots",
        # Slots counted without "do I have": not creatures counted ("There are no spell slots
        # here.").
        "how many spell slots?",
        "how many spell slots left",
        "How many spell slots are left?",
    ],
)
def test_a_casters_spells_and_slots_left_are_read(live_domains, gm, player, text):
    table = _table(gm, player, "cleric")
    _gm_write(table, "damage_apply", target_id="pc-1", amount=6)
    table.run(player, "cast cure wounds on me", job_id="cure")
    before = table.revision()
    run = table.run(player, text, job_id="spells")
    assert run.tools == ["character_get"]
    assert run.texts == [(CLERIC, "requester")]
    assert table.revision() == before


def test_a_character_without_spells_is_told_so(live_domains, gm, player):
    table = _table(gm, player, "fighter")
    run = table.run(player, "what spells do I have?", job_id="spells")
    assert run.texts == [("Ilsa knows no spells and has no spell slots.", "requester")]


def test_a_gm_without_a_character_is_told_to_look_at_someone(live_domains, gm, player):
    table = _table(gm, player, "cleric")
    run = table.run(gm, "what spells do I have?", job_id="spells")
    assert run.texts == [
        ("As the GM you have no character: “look at <name>” reads anyone's.", "requester")
    ]
