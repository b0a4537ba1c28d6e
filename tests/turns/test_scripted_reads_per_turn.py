"""Each domain call is a round trip to the domain server the player waits on: a turn reads the
combat once, and again only after a write that could change what it read (to offer the next
steps). The calls the common combat lines make are pinned here, so that no read is added
unnoticed; before, the GM's "goblin attacks Ilsa" and a player's early "end turn" read the
combat twice, and a cast in combat read the caster's sheet the combat read already shows."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table
from tests.turns.test_scripted_agent import dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("gm_says", "text", "tools"),
    [
        (False, "attack the goblin", ["combat_status", "attack"]),
        (False, "move to 4,5", ["combat_move", "combat_status"]),
        (False, "dash", ["combat_action", "combat_status"]),
        (False, "end turn", ["combat_status", "combat_end_turn", "combat_status"]),
        (True, "end turn", ["combat_status", "combat_end_turn", "combat_status"]),
        # Refused by the rules (it is Ilsa's turn): read once, nonetheless.
        (True, "goblin attacks Ilsa", ["combat_status", "attack"]),
        (True, "Ilsa, attack the goblin", ["combat_status", "attack"]),
        (False, "what can I do?", ["combat_status"]),
    ],
)
def test_a_combat_line_reads_the_combat_once_before_its_write(
    live_domains, gm, player, gm_says, text, tools
):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    run = table.run(gm if gm_says else player, text, job_id="line")
    assert run.tools == tools


def test_a_monsters_attack_on_its_turn_reads_the_combat_once(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end")  # Goblin 2 is up
    run = table.run(gm, "goblin 2 attacks Ilsa", job_id="line")
    assert run.tools == ["combat_status", "attack"]


def test_an_early_end_turn_reads_the_combat_once(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end")  # Goblin 2 is up
    run = table.run(player, "end turn", job_id="early")
    assert run.texts == [("It is Goblin 2's turn: wait for yours.", "requester")]
    assert run.tools == ["combat_status"]


def test_a_cast_in_combat_reads_the_caster_from_the_combat(live_domains, gm, player):
    table = make_table("dnd5e", gm, player)
    created = table.call(player, "character_create", name="Wren", template="wizard", level=3)
    table.characters[principal_for(player)] = created.structured["character"]["id"]
    table.run(gm, "start combat with 2 goblins", job_id="start")  # Wren (pc-1) is up
    run = table.run(player, "cast magic missile at the goblin", job_id="cast")
    # The target and the caster from one read; after the cast, the turn's options read again.
    assert run.tools == ["combat_status", "spell_cast", "combat_status"]
    assert run.texts == [
        ("Wren casts Magic Missile at Goblin: 3 darts for 10 force damage (3d4+3 = 10). Goblin "
         "falls and does not rise. Wren has 3 level 1 spell slots left.", "trigger"),
    ]  # fmt: skip
    assert run.output.suggestions == ("end turn",)


def test_a_wrong_caster_in_combat_is_refused_from_the_combat_read(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa is a fighter
    run = table.run(player, "cast fire bolt at the goblin", job_id="cast")
    assert run.texts == [
        (
            "Ilsa has no spells to cast: Fire Bolt is a wizard's spell. Attack instead "
            "(“attack the goblin”).",
            "requester",
        )
    ]
    assert run.tools == ["combat_status"]
