"""Damage outside an attack is the GM's (damage_apply): a player saying it is told to attack
instead, nothing called; in combat the GM's action row has no damage_apply (the tool cap), so
the GM is told to send it as narration, where it is dealt; felling the last foe so says the
GM can end the combat, as an attack that does says."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_gm_damage import _hp, _play

pytestmark = pytest.mark.django_db


def test_a_player_is_told_only_the_gm_deals_damage(live_domains, gm, player):
    table = _play(gm, player)
    before = table.revision()
    for said in ("damage goblin 4 fire", "deal 7 fire damage to the goblin"):
        run = table.run(player, said)
        assert run.texts == [
            ("Only the GM deals damage outside an attack; attack instead.", "requester")
        ]
        assert run.tools == []
    assert (table.revision(), _hp(table, "mon-2")["current"]) == (before, 7)


def test_in_combat_the_gm_deals_damage_as_narration(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, "the goblin takes 3 fire damage", job_id="act")
    assert run.texts == [
        ("Send “the goblin takes 3 fire damage” as narration: in combat the GM deals damage "
         "outside an attack from the narration.", "requester"),
    ]  # fmt: skip
    # Only the read that offers the turn's options after a refusal in combat.
    assert (run.tools, table.revision()) == (["combat_status"], before)
    told = table.run(gm, "the goblin takes 3 fire damage", job_id="told", task="narration")
    assert told.texts == [("Goblin takes 3 fire damage.", "trigger"), ("Goblin: 4/7 HP.", "gm")]


def test_damage_that_fells_the_last_foe_says_the_gm_can_end_combat(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # two goblins (mon-2, mon-3)
    first = table.run(gm, "damage goblin 20", job_id="first", task="narration")
    assert "No foe is left standing" not in " ".join(text for text, _ in first.texts)

    last = table.run(gm, "damage goblin 2 20", job_id="last", task="narration")

    assert last.texts[-1] == (
        "No foe is left standing: the GM can say “end combat”.",
        "trigger",
    )
    assert last.output.gm_suggestions[:2] == ("end combat", "describe")
