"""Ending concentration at will (SRD 5.1: at any time, no action required): spell_cast with
end_concentration stops the caster concentrating on the spell it names, spending nothing."""

from __future__ import annotations

from tests.domain_servers.conftest import OTHER, Game
from tests.domain_servers.test_dnd5e_bonus_action_spells import _budget
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _char, _party, _refused
from tests.domain_servers.test_dnd5e_table_rules import _turn_of


def _end(ids: dict[str, str], target: str) -> dict[str, object]:
    return {
        "caster_id": ids["ash"],
        "target_id": ids[target],
        "spell": "shield_of_faith",
        "end_concentration": True,
    }


def test_the_caster_ends_it_out_of_its_turn_spending_nothing(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["ash"])
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")
    dnd.write("combat_end_turn")
    _turn_of(dnd, ids["bram"])
    budget, slots = _budget(dnd, ids["ash"]), _char(dnd, ids["ash"])["spell_slots"]

    ended = dnd.write("spell_cast", _end(ids, "bram"), sub="user:player")

    assert ended.pop("receipt")["changed_scopes"] == [
        f"character:{ids['ash']}", "character:pc-2", "combat",
    ]  # fmt: skip
    assert ended == {
        "caster_id": ids["ash"],
        "caster_name": "Ash",
        "spell": "shield_of_faith",
        "spell_name": "Shield of Faith",
        "target_id": ids["bram"],
        "target_name": "Bram",
        "concentration_ended": {
            "spell": "shield_of_faith",
            "spell_name": "Shield of Faith",
            "target_id": ids["bram"],
            "target_name": "Bram",
        },
    }
    assert (_budget(dnd, ids["ash"]), _char(dnd, ids["ash"])["spell_slots"]) == (budget, slots)
    bram = _char(dnd, ids["bram"])
    assert (bram["ac"], "effects" in bram, "concentration" in _char(dnd, ids["ash"])) == (
        16,
        False,
        False,
    )


def test_ending_what_the_caster_does_not_hold_is_refused(dnd: Game) -> None:
    ids = _party(dnd)
    assert _refused(dnd, _end(ids, "bram"))["message"] == "Ash is concentrating on no spell"
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")
    assert _refused(dnd, _end(ids, "ash"))["message"] == (
        "Ash is concentrating on Shield of Faith on Bram, not on Ash"
    )


def test_only_the_casters_player_or_the_gm_ends_it(dnd: Game) -> None:
    ids = _party(dnd)
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")
    error = _refused(dnd, _end(ids, "bram"), sub=OTHER)
    assert error["code"] == "authorization_denied"
