"""What the GM does to the character whose turn it is (calling its death save, healing it
back up) refreshes its player's options: a save already made is not offered again, and a
character healed back up while prone is offered to stand."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


def test_the_gm_calling_a_death_save_and_healing_refresh_the_players_options(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    hp = table.call(gm, "character_get", character_id=ilsa).structured["character"]["hp"]
    _gm_write(table, "damage_apply", target_id=ilsa, amount=hp["current"])
    saved = table.run(gm, "death save for Ilsa", job_id="save")
    assert "death_save" in saved.tools
    assert saved.output.suggestions_for == {ilsa: ("end turn",)}
    assert saved.output.suggestions == ("describe", "end Ilsa's turn")
    healed = table.run(gm, "heal Ilsa 5", job_id="heal")
    assert healed.texts[0] == ("Ilsa is back up with 5 HP.", "trigger")
    assert healed.output.suggestions_for == {ilsa: ("stand up", "attack goblin 2", "end turn")}


def test_a_player_whose_action_is_spent_is_not_offered_an_attack(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    _gm_write(table, "damage_apply", target_id=ilsa, amount=5)
    drunk = table.run(player, "heal Ilsa", job_id="potion")
    assert "drinks a potion of healing" in drunk.texts[0][0]
    assert drunk.output.suggestions == ("end turn",)
    assert drunk.output.gm_suggestions == ("describe", "end Ilsa's turn")
