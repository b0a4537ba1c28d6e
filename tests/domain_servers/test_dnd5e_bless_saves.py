"""Bless on saving throws (SRD 5.1): whenever a blessed creature makes a saving throw it adds
1d4, rolled after its d20 from the same stream; the total includes it. Every save is rolled by
rules.check(save=True): saving_throw's, a spell's forced save, a concentration save. Ability
checks are not blessed."""

from __future__ import annotations

from tests.domain_servers.conftest import GM, Game
from tests.domain_servers.test_dnd5e_bless import _bless
from tests.domain_servers.test_dnd5e_cantrips import _dice
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _party


def test_a_blessed_saving_throw_adds_1d4_to_its_total(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["bram"])
    _dice(monkeypatch, 8, 3)

    save = dnd.write("saving_throw", {"character_id": ids["bram"], "ability": "str", "dc": 15})

    save.pop("receipt")
    assert save == {
        "natural": 8,
        "rolls": [8],
        "mode": "normal",
        "ability": "str",
        "ability_modifier": 2,
        "proficiency": 2,
        "bonus": 0,
        "bless": {"roll": 3},
        "total": 15,
        "dc": 15,
        "success": True,
        "character_id": ids["bram"],
        "character_name": "Bram",
        "character_kind": "pc",
        "kind": "save",
        "skill": None,
    }


def test_a_blessed_ability_check_rolls_no_d4(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["bram"])
    _dice(monkeypatch, 8)  # one die: a second would be an error

    check = dnd.write("ability_check", {"character_id": ids["bram"], "ability": "str", "dc": 15})

    assert ("bless" in check, check["total"], check["success"]) == (False, 10, False)


def test_a_blessed_goblin_adds_1d4_to_its_save_against_sacred_flame(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["goblin"])
    _dice(monkeypatch, 8, 3)  # 8 + 2 + 3 = 13 against Ash's DC 13: no damage

    flame = _cast(dnd, ids["ash"], ids["goblin"], "sacred_flame", sub=GM)

    assert (flame["save"]["bless"], flame["save"]["total"], flame["save"]["success"]) == (
        {"roll": 3},
        13,
        True,
    )
    assert "damage" not in flame


def test_a_blessed_casters_concentration_save_adds_1d4(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["ash"], ids["bram"])
    _dice(monkeypatch, 6, 2)  # 6 + 2 (CON) + 2 = 10 against DC 10: kept

    hurt = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 4})

    held = hurt["concentration"]
    assert (held["spell"], held["kept"], held["save"]["bless"], held["save"]["total"]) == (
        "Bless",
        True,
        {"roll": 2},
        10,
    )
