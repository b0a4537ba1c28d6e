"""Bless is a concentration spell (SRD 5.1): whatever ends the caster's concentration ends it
on every creature it blessed: another concentration spell, a failed concentration save, 0 HP,
a long rest, or the caster ending it at will."""

from __future__ import annotations

from typing import Any

from tests.domain_servers.conftest import GM, PLAYER, Game
from tests.domain_servers.test_dnd5e_bless import _bless
from tests.domain_servers.test_dnd5e_cantrips import _dice
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _party, _refused

TARGETS = ("ash", "bram", "wren")


def _blessed(dnd: Game, **party: Any) -> dict[str, str]:
    """Ash (cleric, CON +2, 10 HP) concentrating on Bless on Ash, Bram and Wren."""
    ids = _party(dnd, **party)
    _bless(dnd, ids["ash"], *(ids[t] for t in TARGETS))
    return ids


def _blessings(dnd: Game, ids: dict[str, str]) -> dict[str, bool]:
    chars = dnd.state()["characters"]
    return {
        t: any(e["spell"] == "bless" for e in chars[ids[t]].get("effects", [])) for t in TARGETS
    }


NONE = dict.fromkeys(TARGETS, False)
ALL = dict.fromkeys(TARGETS, True)


def test_a_new_concentration_spell_ends_bless_on_all_its_targets(dnd: Game) -> None:
    ids = _blessed(dnd)

    cast = _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")

    assert cast["concentration_ended"] == {
        "spell": "bless",
        "spell_name": "Bless",
        "target_ids": [ids["ash"], ids["bram"], ids["wren"]],
        "target_names": ["Ash", "Bram", "Wren"],
    }
    assert cast["receipt"]["changed_scopes"] == [
        "character:pc-1", "character:pc-2", "character:pc-3",
    ]  # fmt: skip
    assert _blessings(dnd, ids) == NONE
    assert [e["spell"] for e in dnd.state()["characters"][ids["bram"]]["effects"]] == [
        "shield_of_faith"
    ]


def test_a_failed_concentration_save_ends_bless_on_all_its_targets(dnd: Game, monkeypatch) -> None:
    ids = _blessed(dnd)
    _dice(monkeypatch, 2, 1)  # 2 + 2 + 1 (Ash is blessed too) = 5 against DC 10

    hurt = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 4})

    assert (hurt["concentration"]["spell"], hurt["concentration"]["kept"]) == ("Bless", False)
    assert hurt["receipt"]["changed_scopes"] == [
        "character:pc-1", "character:pc-2", "character:pc-3",
    ]  # fmt: skip
    assert _blessings(dnd, ids) == NONE
    assert "concentration" not in dnd.state()["characters"][ids["ash"]]


def test_a_kept_concentration_save_keeps_bless_on_all(dnd: Game, monkeypatch) -> None:
    ids = _blessed(dnd)
    _dice(monkeypatch, 7, 1)  # 7 + 2 + 1 = 10 against DC 10

    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 4})

    assert _blessings(dnd, ids) == ALL


def test_the_caster_at_0_hp_ends_bless(dnd: Game) -> None:
    ids = _blessed(dnd)

    hurt = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 10})

    assert hurt["concentration"] == {
        "spell": "Bless",
        "kept": False,
        "reason": "Ash dropped to 0 hit points",
    }
    assert _blessings(dnd, ids) == NONE


def test_a_long_rest_ends_bless(dnd: Game) -> None:
    ids = _blessed(dnd)

    rested = dnd.write("long_rest", {"character_id": ids["ash"]})

    assert rested["rested"][0]["concentration_ended"] == "Bless"
    assert _blessings(dnd, ids) == NONE


def test_the_caster_ends_bless_at_will_naming_one_of_its_targets(dnd: Game) -> None:
    ids = _blessed(dnd)
    args = {"caster_id": ids["ash"], "target_id": ids["wren"], "spell": "bless"}

    ended = dnd.write("spell_cast", {**args, "end_concentration": True}, sub=PLAYER)

    ended.pop("receipt")
    held = {
        "spell": "bless",
        "spell_name": "Bless",
        "target_ids": [ids["ash"], ids["bram"], ids["wren"]],
        "target_names": ["Ash", "Bram", "Wren"],
    }
    assert ended == {
        "caster_id": ids["ash"],
        "caster_name": "Ash",
        **held,
        "target_id": ids["wren"],
        "target_name": "Wren",
        "concentration_ended": held,
    }
    assert _blessings(dnd, ids) == NONE


def test_the_caster_ends_bless_at_will_naming_its_targets(dnd: Game) -> None:
    ids = _blessed(dnd)
    args = {"caster_id": ids["ash"], "target_ids": [ids["bram"], ids["ash"]], "spell": "bless"}

    ended = dnd.write("spell_cast", {**args, "end_concentration": True}, sub=GM)

    assert ended["concentration_ended"]["target_names"] == ["Ash", "Bram", "Wren"]
    assert _blessings(dnd, ids) == NONE


def test_ending_bless_on_a_creature_it_is_not_on_is_refused(dnd: Game) -> None:
    ids = _blessed(dnd)
    args = {"caster_id": ids["ash"], "target_id": ids["goblin"], "spell": "bless"}

    error = _refused(dnd, {**args, "end_concentration": True}, sub=GM)

    assert error["message"] == (
        "Ash is concentrating on Bless on Ash, Bram and Wren, not on Goblin"
    )
