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
    for goblin in ("mon-2", "mon-3"):
        _gm_write(table, "damage_apply", target_id=goblin, amount=50)
    hp = table.call(gm, "character_get", character_id=ilsa).structured["character"]["hp"]
    _gm_write(table, "damage_apply", target_id=ilsa, amount=hp["current"])
    # Dropped during her own turn: her first death save comes as her next turn starts.
    look = table.run(gm, "describe", job_id="look")
    assert look.output.suggestions_for == {ilsa: ("end turn",)}
    assert look.output.suggestions == ("end combat", "describe", "end Ilsa's turn")
    early = table.run(player, "death save", job_id="early")
    assert early.texts[0][0].endswith(
        "Ilsa dropped this turn: the first death save comes at the start of the next."
    )
    # Nobody else stands: the turn comes straight back to her, and starts with the save.
    back = table.run(player, "end turn", job_id="pass")
    assert back.output.suggestions == ("death save",)
    again = table.run(gm, "describe", job_id="look-again")
    assert again.output.suggestions == ("death save for Ilsa", "end combat", "describe")
    saved = table.run(player, "death save", job_id="save")
    assert "death_save" in saved.tools
    assert saved.output.suggestions == ("end turn",)
