""" "Ilsa, make an attack against the goblin", "Ilsa makes an attack on goblin 2": an attack
made, said of a creature or addressed to it, is that creature's attack, as "make an attack on
the goblin" is the speaker's and "Ilsa, attack the goblin" is Ilsa's. It was read as an
attack by "Ilsa makes an" (a creature nobody is)."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_attack_roll_said import assert_attacks_as_said, assert_read_as_attack
from tests.turns.test_scripted_closing_marks import _sent

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("Ilsa makes an attack on goblin 2", {"attacker": "Ilsa", "target": "goblin 2"}),
        ("goblin 2 makes an attack against Ilsa with advantage",
         {"attacker": "goblin 2", "target": "Ilsa", "mode": "advantage"}),
        ("Ilsa makes an attack at the goblin with her longsword",
         {"attacker": "Ilsa", "target": "the goblin", "weapon": "her longsword"}),
        ("Ilsa makes an attack", {"attacker": "Ilsa", "target": None}),
        # The roll a table makes for it stays that form.
        ("Ilsa makes an attack roll against goblin 2", {"attacker": "Ilsa", "target": "goblin 2"}),
    ],
)  # fmt: skip
def test_an_attack_made_said_of_a_creature_is_its_attack(text, groups):
    assert_read_as_attack(text, groups)


@pytest.mark.parametrize(
    ("text", "plain", "target"),
    [
        ("Ilsa, make an attack against the goblin", "Ilsa, attack the goblin", "mon-2"),
        ("Ilsa makes an attack on goblin 2", "Ilsa attacks goblin 2", "mon-3"),
        ("Ilsa, make an attack at goblin 2.", "Ilsa, attack goblin 2", "mon-3"),
    ],
)
def test_an_attack_made_by_a_character_named_is_its_attack(
    live_domains, gm, player, text, plain, target
):
    assert_attacks_as_said(gm, player, text, plain, {"target_id": target})


def test_a_monster_the_gm_says_makes_an_attack_attacks(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(player, "end turn", job_id="end")  # Goblin 2 (mon-3) is up
    calls, output = _sent(table, gm, "Goblin 2, make an attack against Ilsa")
    assert calls == [("attack", {"attacker_id": "mon-3", "target_id": "pc-1"})]
    assert output.declined is False


def test_an_attack_made_at_nobody_here_is_refused(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(player, "Ilsa, make an attack against the orc", job_id="orc")
    assert run.texts == [
        ("I cannot find “the orc” here. Present: Ilsa, Goblin 2, Goblin.", "requester")
    ]
    assert run.tools == ["combat_status"]
    assert table.revision() == before
