"""A concentration save the damage called for is narrated with its numbers, as any save is: the
total rolled against the DC the result gives ("Ash rolls 7 against DC 10 and loses
concentration: Shield of Faith ends."), one total per Magic Missile dart, in phrasings seeded
by the job as the rest of the narration is."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write
from tests.turns.test_scripted_concentration_saves import _as, _fire_bolt_at_ash, _party

pytestmark = pytest.mark.django_db


BOLT = "Wren casts Fire Bolt at Ash and hits (21 to hit): 13 fire damage (2d10 = 13). "


@pytest.mark.parametrize(
    ("job_id", "said"),
    [
        ("bolt", "Ash rolls 6 against DC 10 and loses concentration: Shield of Faith ends."),
        ("bolt-3", "Ash loses concentration, rolling 6 against DC 10: Shield of Faith ends."),
    ],
)
def test_a_lost_concentration_save_says_its_total_and_dc(live_domains, gm, player, job_id, said):
    table = _party(gm, player)
    run = _fire_bolt_at_ash(table, player, job_id)
    assert run.texts == [(BOLT + said, "trigger")]


def test_a_concentration_save_made_says_its_total_and_dc(live_domains, gm, player):
    table = _party(gm, player)
    _fire_bolt_at_ash(table, player, "first")
    _gm_write(table, "heal", target_id="pc-1", amount=13)
    _as(table, player, "pc-1")
    table.run(player, "cast shield of faith on Bram", job_id="again")
    run = _fire_bolt_at_ash(table, player, "second")
    assert run.texts == [
        ("Wren casts Fire Bolt at Ash and hits (21 to hit): 10 fire damage (2d10 = 10). Ash's "
         "concentration holds (13 against DC 10): Shield of Faith lasts.", "trigger"),
    ]  # fmt: skip


def test_magic_missile_says_the_total_of_each_darts_save(live_domains, gm, player):
    table = _party(gm, player)
    _as(table, player, "pc-3")
    run = table.run(player, "cast magic missile at Ash", job_id="darts")
    assert run.texts == [
        ("Wren casts Magic Missile at Ash: 3 darts for 14 force damage (3d4+3 = 14). Ash loses "
         "concentration, rolling 16 and 6 against DC 10: Shield of Faith ends. Wren has 3 level "
         "1 spell slots left.", "trigger"),
    ]  # fmt: skip


def test_the_gms_damage_says_the_save_it_called_for(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    ash = table.call(player, "character_create", name="Ash", template="cleric", level=3)
    table.call(gm, "character_create", name="Bram", template="fighter")
    table.characters[principal_for(player)] = ash.structured["character"]["id"]
    table.run(gm, "set phase play", job_id="play")
    table.run(player, "cast shield of faith on Bram", job_id="ward")
    run = table.run(gm, "damage Ash 2 cold", job_id="chill")
    assert run.texts == [
        ("Ash takes 2 cold damage. Ash's concentration breaks (6 against DC 10): Shield of Faith "
         "ends.", "trigger"),
    ]  # fmt: skip
