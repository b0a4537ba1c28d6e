"""Where the scripted GM says an attack roll's or a save's numbers, a Bless die in the result
is said with them so the arithmetic adds up; a result without one is told as before, and a
monster's Bless die (hidden from its players with its d20) is never said."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import _gm_write

pytestmark = pytest.mark.django_db


def _party(gm, player):
    """The player's cleric Ash (pc-1), bound to them, the GM's fighter Bram (pc-2) and a goblin
    (mon-1)."""
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Ash", template="cleric", level=3)
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.call(gm, "character_create", name="Bram", template="fighter")
    table.run(gm, "set phase play", job_id="play")
    _gm_write(table, "monster_spawn", monster_key="goblin")
    return table


def test_a_blessed_attack_says_the_bless_die_in_its_total(live_domains, gm, player):
    table = _party(gm, player)
    table.run(player, "cast bless", job_id="bless")
    run = table.run(player, "attack the goblin", job_id="hit")
    assert run.texts == [
        ("Ash's Mace finds only air; 11 is not enough. (+4 from Bless.)", "trigger"),
    ]  # fmt: skip


def test_a_blessed_save_says_the_bless_die_in_its_total(live_domains, gm, player):
    table = _party(gm, player)
    table.run(player, "cast bless", job_id="bless")
    run = table.run(player, "dex save dc 12", job_id="save")
    assert run.texts == [
        ("Ash's dex save falls short with 8 (DC 12). (+4 from Bless.)", "trigger"),
    ]  # fmt: skip


def test_an_unblessed_save_is_told_as_before(live_domains, gm, player):
    table = _party(gm, player)
    table.run(player, "cast bless on Bram", job_id="bless")
    run = table.run(player, "dex save dc 12", job_id="save")
    assert run.texts == [
        ("Ash's dex save falls short with 4 (DC 12).", "trigger"),
    ]  # fmt: skip


def test_a_blessed_death_save_adds_the_die_to_the_d20(live_domains, gm, player):
    table = _party(gm, player)
    table.run(player, "cast bless on Bram", job_id="bless")
    _gm_write(table, "damage_apply", target_id="pc-2", amount=12)
    run = table.run(gm, "death save for Bram", job_id="death")
    assert run.texts == [
        ("Bram rolls 4 + 4 from Bless = 8 on a death save: a failure.", "trigger"),
    ]  # fmt: skip


def test_a_blessed_monsters_save_says_no_bless_die(live_domains, gm, player):
    table = _party(gm, player)
    table.run(player, "cast bless on the goblin", job_id="bless")
    run = table.run(player, "cast sacred flame on the goblin", job_id="flame")
    assert run.texts == [
        ("Ash casts Sacred Flame on Goblin (DEX save 10 against DC 12): 7 radiant damage "
         "(1d8 = 7). Goblin falls and does not rise.", "trigger"),
    ]  # fmt: skip


def test_a_blessed_monsters_attack_told_to_the_room_says_no_bless_die(live_domains, gm, player):
    table = _party(gm, player)
    table.run(player, "cast bless on the goblin", job_id="bless")
    run = table.run(gm, "the goblin attacks Bram", job_id="hit")
    assert run.texts == [
        ("Goblin's Scimitar finds only air; 12 is not enough.", "trigger"),
    ]  # fmt: skip


def test_a_blessed_wizards_fire_bolt_says_the_bless_die(live_domains, gm, player):
    table = _party(gm, player)
    wren = table.call(player, "character_create", name="Wren", template="wizard", level=3)
    table.run(player, "cast bless on Wren", job_id="bless")
    table.characters[principal_for(player)] = wren.structured["character"]["id"]
    run = table.run(player, "cast fire bolt at the goblin", job_id="bolt")
    assert run.texts == [
        ("Wren casts Fire Bolt at Goblin but misses (12 to hit). (+4 from Bless.)", "trigger"),
    ]


def test_a_blessed_creatures_save_against_a_bite_says_the_bless_die(live_domains, gm, player):
    table = _party(gm, player)
    _gm_write(table, "monster_spawn", monster_key="wolf")
    table.run(player, "cast bless on Bram", job_id="bless")
    runs = [table.run(gm, "the wolf attacks Bram", job_id=f"bite-{n}") for n in range(2)]
    assert [r.texts for r in runs] == [
        [("Wolf's Bite finds only air; 8 is not enough.", "trigger")],
        [("A solid hit. Wolf's Bite hits Bram (20 to hit): 7 piercing. Bram is knocked prone "
          "(STR save 9 against DC 11, +1 from Bless).", "trigger")],
    ]  # fmt: skip
