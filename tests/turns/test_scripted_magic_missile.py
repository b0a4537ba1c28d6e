"""A player's wizard casts Magic Missile through the rules (spell_cast: a slot spent, every
dart's damage rolled and applied), at the slot level said; the table hears the damage and
the target's state as an attack tells them, and the dice panel shows the roll."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from apps.turns.models import Operation
from apps.turns.services.publish import dice_from
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write

pytestmark = pytest.mark.django_db


def _wizards_table(gm, player, *, template: str = "wizard", level: int = 3):
    """The player's Wren (pc-1, a wizard unless said), bound to them, and an ogre and a
    goblin, in play."""
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Wren", template=template, level=level)
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.run(gm, "set phase play", job_id="play")
    table.ogre = _gm_write(table, "monster_spawn", monster_key="ogre")["character"]["id"]
    _gm_write(table, "monster_spawn", monster_key="goblin")
    return table


def _slots(table):
    return table.call(table.gm, "character_get", character_id="pc-1").structured["character"][
        "spell_slots"
    ]


def _hp(table, char_id):
    return table.call(table.gm, "character_get", character_id=char_id).structured["character"][
        "hp"
    ]["current"]


def test_a_wizard_casts_magic_missile_at_a_monster(live_domains, gm, player):
    table = _wizards_table(gm, player)
    run = table.run(player, "I cast magic missile at the ogre", job_id="missile")
    # The caster's class, then the table's names (three), then the cast.
    assert run.tools == [
        "character_get", "campaign_get", "character_get", "character_get", "character_get",
        "spell_cast",
    ]  # fmt: skip
    assert run.texts == [
        ("Wren casts Magic Missile at Ogre: 3 darts for 14 force damage (3d4+3 = 14). Wren has "
         "3 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip
    assert (_slots(table)["1"], _hp(table, table.ogre)) == ({"current": 3, "max": 4}, 45)
    (cast,) = (o for o in run.caller.outcomes if o.tool == "spell_cast")
    # The player's answer: the ogre's hit points are not in it.
    assert "hp_after" not in cast.structured["damage"]
    line = dice_from(
        [Operation(step=1, tool="spell_cast", result={"structuredContent": cast.structured})]
    )
    darts = cast.structured["roll"]["rolls"][0]["kept"]
    assert (sum(darts), len(darts)) == (11, 3)
    # The room's dice line: each dart's d4 and their +3, the damage rolled.
    assert line == [
        {"tool": "spell_cast", "label": "Magic Missile · Ogre", "expression": "3d4+3",
         "total": 14, "addends": [*darts, 3], "dropped": []},
    ]  # fmt: skip


def test_a_slot_level_said_adds_a_dart_and_a_monster_dropped_dies(live_domains, gm, player):
    table = _wizards_table(gm, player)
    run = table.run(player, "cast magic missile at goblin at level 2", job_id="missile")
    assert run.texts == [
        ("Wren casts Magic Missile at Goblin: 4 darts for 17 force damage (4d4+4 = 17). Goblin "
         "falls and does not rise. Wren has 1 level 2 spell slot left.", "trigger"),
    ]  # fmt: skip
    assert _slots(table)["2"] == {"current": 1, "max": 2}


def test_a_pc_dropped_to_zero_is_said_to_be_dying(live_domains, gm, player):
    table = _wizards_table(gm, player)
    created = table.call(gm, "character_create", name="Bram", template="fighter")
    bram = created.structured["character"]["id"]
    _gm_write(table, "damage_apply", target_id=bram, amount=8)
    run = table.run(player, "cast magic missile at Bram", job_id="missile")
    (text,) = run.texts
    assert text[0].endswith(
        "Bram drops, unconscious and dying. Wren has 3 level 1 spell slots left."
    )
    assert _hp(table, bram) == 0


def test_the_gm_is_told_to_apply_the_damage_and_nothing_changes(live_domains, gm, player):
    table = _wizards_table(gm, player)
    before = table.revision()
    run = table.run(gm, "cast magic missile at the ogre", job_id="missile")
    assert run.texts == [
        ("The rules here cast Magic Missile for a player's wizard: roll it and apply the "
         "damage it does (“damage the ogre 9 force”).", "requester"),
    ]  # fmt: skip
    assert run.tools == [] and table.revision() == before


def test_a_non_wizard_is_told_they_cannot_cast_it_and_nothing_changes(live_domains, gm, player):
    table = _wizards_table(gm, player, template="cleric")
    before = table.revision()
    run = table.run(player, "I cast magic missile at the goblin", job_id="missile")
    assert run.texts == [
        ("Wren cannot cast Magic Missile: it is a wizard's spell. Attack instead "
         "(“attack the goblin”).", "requester"),
    ]  # fmt: skip
    assert run.tools == ["character_get"] and table.revision() == before


def test_attacking_with_fire_bolt_is_still_an_attack(live_domains, gm, player):
    # The wizard's Fire Bolt attack entry; "cast fire bolt" casts the cantrip (spell_cast).
    table = _wizards_table(gm, player)
    run = table.run(player, "attack the goblin with fire bolt", job_id="bolt")
    assert run.tools[-1] == "attack"
    assert _slots(table)["1"] == {"current": 4, "max": 4}
