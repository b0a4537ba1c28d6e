"""A long rest ends the resting caster's concentration (10 minutes at most, SRD 5.1), and the
effect it held goes with it."""

from __future__ import annotations

from tests.domain_servers.conftest import Game
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _char, _party


def test_a_long_rest_ends_the_casters_concentration_and_its_effect(dnd: Game) -> None:
    ids = _party(dnd)
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")

    rested = dnd.write("long_rest", {"character_id": ids["ash"]})

    assert rested["rested"][0]["concentration_ended"] == "Shield of Faith"
    assert rested["receipt"]["changed_scopes"] == [f"character:{ids['ash']}", "character:pc-2"]
    assert "concentration" not in _char(dnd, ids["ash"])
    bram = _char(dnd, ids["bram"])
    assert (bram["ac"], "effects" in bram) == (16, False)


def test_a_rest_with_nothing_held_says_nothing_of_it(dnd: Game) -> None:
    ids = _party(dnd)
    rested = dnd.write("long_rest", {"character_id": ids["ash"]})
    assert "concentration_ended" not in rested["rested"][0]
