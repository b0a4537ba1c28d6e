"""A dying character's turn is its death save: "end turn" is offered to its player only once
the save is made (the rules make it at the start of that turn)."""

from __future__ import annotations

import pytest

from apps.domains.client import principal_for
from tests.turns.test_scripted_agent import _gm_write, dnd_table_in_combat

pytestmark = pytest.mark.django_db


def test_a_dying_player_is_offered_end_turn_only_after_the_death_save(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    ilsa = table.characters[principal_for(player)]
    hp = table.call(gm, "character_get", character_id=ilsa).structured["character"]["hp"]
    _gm_write(table, "damage_apply", target_id=ilsa, amount=hp["current"])
    look = table.run(gm, "describe", job_id="look")
    assert look.output.suggestions_for == {ilsa: ("death save",)}
    # The GM may still end the turn: a player gone quiet must not hold up the table.
    assert look.output.suggestions == ("death save for Ilsa", "describe", "end Ilsa's turn")
    saved = table.run(player, "death save", job_id="save")
    assert "death_save" in saved.tools
    assert saved.output.suggestions == ("end turn",)
