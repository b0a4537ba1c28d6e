"""Bless on attack rolls (SRD 5.1): whenever a blessed creature makes an attack roll it adds
1d4, rolled after its d20 from the same stream; the total includes it. Every attack is rolled
by rules.resolve_attack: a weapon's, Fire Bolt's, an opportunity attack's."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game
from tests.domain_servers.test_dnd5e_bless import _bless
from tests.domain_servers.test_dnd5e_cantrips import _dice
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _party


def test_a_blessed_attack_adds_1d4_to_its_total(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["bram"])
    _dice(monkeypatch, 8, 3, 4)  # 8 + 4 + 3 = 15 against the goblin's AC 15; then the damage

    attack = dnd.write("attack", {"attacker_id": ids["bram"], "target_id": ids["goblin"]})

    assert attack["to_hit"] == {
        "natural": 8,
        "rolls": [8],
        "mode": "normal",
        "bonus": 4,
        "bless": {"roll": 3},
        "total": 15,
        "target_ac": 15,
        "advantage_reasons": [],
        "disadvantage_reasons": [],
    }
    assert attack["hit"] is True


def test_an_unblessed_attack_rolls_no_d4(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _dice(monkeypatch, 10)  # a miss: 14 against AC 15, one die drawn

    attack = dnd.write("attack", {"attacker_id": ids["bram"], "target_id": ids["goblin"]})

    assert ("bless" in attack["to_hit"], attack["to_hit"]["total"], attack["hit"]) == (
        False,
        14,
        False,
    )


def test_a_blessed_natural_1_still_misses(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["bram"])
    _dice(monkeypatch, 1, 4)

    attack = dnd.write("attack", {"attacker_id": ids["bram"], "target_id": ids["goblin"]})

    assert (attack["to_hit"]["bless"], attack["to_hit"]["total"], attack["hit"]) == (
        {"roll": 4},
        9,
        False,
    )


def test_a_blessed_fire_bolt_adds_1d4(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["wren"])
    _dice(monkeypatch, 9, 2, 6)  # 9 + 4 + 2 = 15 against AC 15; then 1d10 fire

    bolt = _cast(dnd, ids["wren"], ids["goblin"], "fire_bolt")

    assert (bolt["to_hit"]["bless"], bolt["to_hit"]["total"], bolt["hit"]) == (
        {"roll": 2},
        15,
        True,
    )


def test_a_blessed_goblins_opportunity_attack_adds_1d4(dnd: Game, monkeypatch) -> None:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    ilsa = dnd.write("character_create", {"name": "Ilsa", "template": "cleric"})["character"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    _bless(dnd, ilsa["id"], goblin)  # before the fight
    # As test_dnd5e_opportunity_attacks sets it: the goblin at [6, 0] goes first, Ash at [5, 0].
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, goblin]})
    dnd.write("combat_end_turn")
    dnd.write("combat_move", {"character_id": ash, "x": 3, "y": 0}, sub=PLAYER)
    _dice(monkeypatch, 9, 2, 3)  # 9 + 4 + 2 = 15; then the scimitar's 1d6

    hit = dnd.write("attack", {"attacker_id": goblin, "target_id": ash, "as_reaction": True})

    assert (hit["opportunity_attack"], hit["to_hit"]["bless"], hit["to_hit"]["total"]) == (
        True,
        {"roll": 2},
        15,
    )
