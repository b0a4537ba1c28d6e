"""A short rest ends the resting caster's concentration, and the effect it held goes with it.

SRD 5.1, Resting: "A short rest is a period of downtime, at least 1 hour long". The spells the
rules hold by concentration last far less: Bless "Concentration, up to 1 minute", Shield of
Faith "Concentration, up to 10 minutes" (as a long rest already ends them)."""

from __future__ import annotations

from tests.domain_servers.conftest import PLAYER, Game
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _char, _party


def _wounded_ash_wards_bram(dnd: Game) -> dict[str, str]:
    ids = _party(dnd)
    # Wounded before casting, so no damage tests the concentration: 7 of Ash's 10 hit points.
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 3})
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")
    assert _char(dnd, ids["bram"])["ac"] == 18
    return ids


def test_a_short_rest_ends_the_casters_concentration_and_its_effect(dnd: Game) -> None:
    ids = _wounded_ash_wards_bram(dnd)

    rested = dnd.write("short_rest", {"character_id": ids["ash"], "dice": 1}, sub=PLAYER)

    assert rested["concentration_ended"] == "Shield of Faith"
    assert rested["receipt"]["changed_scopes"] == [f"character:{ids['ash']}", "character:pc-2"]
    assert "concentration" not in _char(dnd, ids["ash"])
    bram = _char(dnd, ids["bram"])
    assert (bram["ac"], "effects" in bram) == (16, False)


def test_a_short_rest_with_nothing_held_says_nothing_of_it(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 3})

    rested = dnd.write("short_rest", {"character_id": ids["ash"], "dice": 1}, sub=PLAYER)

    assert "concentration_ended" not in rested
    assert rested["receipt"]["changed_scopes"] == [f"character:{ids['ash']}"]
