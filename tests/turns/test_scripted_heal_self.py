""" "heal me", "heal myself": the requester's own character drinks the potion, as "give me 5
temp hp" is the requester's own; a GM without a character is told to name who is healed."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", ["heal me", "heal myself!", "I heal myself."])
def test_a_player_heals_their_own_character_with_a_potion(live_domains, gm, player, text):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa (pc-1) is up
    _gm_write(table, "damage_apply", target_id="pc-1", amount=5)
    run = table.run(player, text, job_id="self-heal")
    healed = [o.structured for o in run.caller.outcomes if o.tool == "heal"]
    assert [(h["target_id"], h["healer_id"]) for h in healed] == [("pc-1", "pc-1")]
    assert run.texts == [
        ("Ilsa drinks a potion of healing (2d4+2 = 8). Ilsa recovers 5 HP (now 12).", "trigger")
    ]


def test_a_gm_without_a_character_is_told_to_name_who_is_healed(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    before = table.revision()
    run = table.run(gm, "heal me", job_id="gm-self-heal")
    assert run.texts == [
        ("As the GM you have no character: name who is healed (“heal <target> 5”).", "requester")
    ]
    assert "heal" not in run.tools
    assert table.revision() == before
