"""Concentration (SRD 5.1): a caster concentrates on one spell at a time; another concentration
spell ends the first. Damage calls for a CON save, DC 10 or half the damage taken, whichever is
higher, one per damage instance; a failure ends the spell. Dropping to 0 HP, dying or being
incapacitated ends it with no save. Its effect (Shield of Faith's +2 AC) goes with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game, ScriptedStream
from tests.domain_servers.test_dnd5e_cantrips import _dice
from tests.domain_servers.test_dnd5e_magic_missile import _rewrite
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _party

SHIELD = {"spell": "shield_of_faith", "name": "Shield of Faith", "ac_bonus": 2}


def _stored(dnd: Game, char_id: str) -> dict[str, Any]:
    return dnd.state()["characters"][char_id]


def _warded(dnd: Game, **party: Any) -> dict[str, str]:
    """Ash (cleric, CON 14: +2, no CON save proficiency, 10 HP) concentrating on Shield of
    Faith on Bram (AC 16, so 18)."""
    ids = _party(dnd, **party)
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")
    return ids


def _save(natural: int, dc: int, **extra: Any) -> dict[str, Any]:
    total = natural + 2
    return {
        "natural": natural, "rolls": [natural], "mode": "normal", "ability": "con",
        "ability_modifier": 2, "proficiency": 0, "bonus": 0, "total": total, "dc": dc,
        "success": total >= dc,
        # Named as saving_throw names its roller (Ash, the caster).
        "character_id": "pc-1", "character_name": "Ash", "character_kind": "pc", "kind": "save",
        **extra,
    }  # fmt: skip


def _still_warded(dnd: Game, ids: dict[str, str]) -> bool:
    ash, bram = _stored(dnd, ids["ash"]), _stored(dnd, ids["bram"])
    held = ash.get("concentration") == {"spell": "shield_of_faith", "target_id": ids["bram"]}
    assert held == ("effects" in bram)  # the caster's and the target's sides agree
    return held and rules.armor_class(bram) == 18


def test_a_second_concentration_spell_ends_the_first(dnd: Game) -> None:
    ids = _warded(dnd, level=3)

    cast = _cast(dnd, ids["ash"], ids["ash"], "shield_of_faith")

    assert cast["concentration_ended"] == {
        "spell": "shield_of_faith",
        "spell_name": "Shield of Faith",
        "target_id": ids["bram"],
        "target_name": "Bram",
    }
    assert cast["receipt"]["changed_scopes"] == [f"character:{ids['ash']}", "character:pc-2"]
    assert "effects" not in _stored(dnd, ids["bram"])
    assert _stored(dnd, ids["ash"])["effects"] == [{**SHIELD, "from": ids["ash"]}]
    attack = dnd.write("attack", {"attacker_id": ids["goblin"], "target_id": ids["bram"]})
    assert attack["to_hit"]["target_ac"] == 16


def test_the_first_concentration_spell_ends_nothing(dnd: Game) -> None:
    ids = _party(dnd)
    assert "concentration_ended" not in _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")


def test_damage_the_caster_saves_against_keeps_the_spell(dnd: Game, monkeypatch) -> None:
    ids = _warded(dnd)
    _dice(monkeypatch, 8)  # 8 + 2 = 10 against DC 10

    hurt = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 4})

    assert hurt["concentration"] == {"spell": "Shield of Faith", "kept": True, "save": _save(8, 10)}
    assert hurt["receipt"]["changed_scopes"] == [f"character:{ids['ash']}"]
    assert _still_warded(dnd, ids)


def test_a_failed_save_ends_the_spell_and_its_ac_bonus(dnd: Game, monkeypatch) -> None:
    ids = _warded(dnd)
    _dice(monkeypatch, 7)  # 9 against DC 10

    hurt = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 4})

    assert hurt["concentration"] == {
        "spell": "Shield of Faith", "kept": False, "save": _save(7, 10),
    }  # fmt: skip
    # Bram's AC went with it: his character changed too.
    assert hurt["receipt"]["changed_scopes"] == [f"character:{ids['ash']}", "character:pc-2"]
    assert not _still_warded(dnd, ids)
    assert "concentration" not in _stored(dnd, ids["ash"])
    assert rules.armor_class(_stored(dnd, ids["bram"])) == 16


def test_the_dc_is_half_the_damage_taken_temporary_hit_points_included(
    dnd: Game, monkeypatch
) -> None:
    ids = _warded(dnd)
    dnd.write("temp_hp_grant", {"target_id": ids["ash"], "amount": 20})
    _dice(monkeypatch, 9)  # 11 against DC 12 (24 / 2)

    hurt = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 24})

    assert (hurt["hp_after"]["current"], hurt["concentration"]["save"]["dc"]) == (6, 12)
    assert hurt["concentration"]["kept"] is False


def test_dropping_to_0_hp_ends_it_with_no_save(dnd: Game) -> None:
    ids = _warded(dnd)

    hurt = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 10})

    assert "random_stream_receipt" not in hurt  # nothing rolled
    assert hurt["concentration"] == {
        "spell": "Shield of Faith", "kept": False, "reason": "Ash dropped to 0 hit points",
    }  # fmt: skip
    assert not _still_warded(dnd, ids)


def test_dying_at_once_ends_it(dnd: Game) -> None:
    ids = _warded(dnd)

    hurt = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 20})  # massive

    assert (hurt["dead"], hurt["concentration"]["reason"]) == (True, "Ash died")
    assert not _still_warded(dnd, ids)


def test_no_damage_taken_calls_for_no_save() -> None:
    ash = {
        "id": "pc-1", "name": "Ash", "kind": "pc", "conditions": [], "immunities": ["fire"],
        "hp": {"current": 10, "max": 10, "temp": 0},
        "death_saves": {"successes": 0, "failures": 0},
        "abilities": {"con": 14}, "proficiency_bonus": 2,
        "concentration": {"spell": "shield_of_faith", "target_id": "pc-2"},
    }  # fmt: skip
    hurt = rules.apply_damage(ash, 8, "fire", rng=ScriptedStream())

    assert "concentration" not in hurt  # no die drawn either: the stream has none
    assert ash["concentration"] == {"spell": "shield_of_faith", "target_id": "pc-2"}


def test_an_attack_that_hits_the_caster_calls_for_the_save(dnd: Game, monkeypatch) -> None:
    ids = _warded(dnd)
    # The goblin's scimitar: 15 + 4 hits AC 18; 3 + 2 slashing; the save 5 + 2 against DC 10.
    _dice(monkeypatch, 15, 3, 5)

    attack = dnd.write("attack", {"attacker_id": ids["goblin"], "target_id": ids["ash"]})

    assert attack["damage"]["effect"]["concentration"] == {
        "spell": "Shield of Faith", "kept": False, "save": _save(5, 10),
    }  # fmt: skip
    assert sorted(attack["receipt"]["changed_scopes"]) == [
        f"character:{ids['goblin']}", f"character:{ids['ash']}", "character:pc-2",
    ]  # fmt: skip
    assert not _still_warded(dnd, ids)


def test_each_magic_missile_dart_calls_for_its_own_save(dnd: Game, monkeypatch) -> None:
    ids = _warded(dnd)
    # Three darts of 1 + 1; then a save per dart until one fails: 12, then 3.
    _dice(monkeypatch, 1, 1, 1, 10, 1)

    cast = _cast(dnd, ids["wren"], ids["ash"], "magic_missile")

    assert cast["damage"]["concentration"] == {
        "spell": "Shield of Faith", "kept": False, "saves": [_save(10, 10), _save(1, 10)],
    }  # fmt: skip
    assert cast["damage"]["hp_after"]["current"] == 4
    assert not _still_warded(dnd, ids)


def test_sacred_flame_damage_calls_for_the_save(dnd: Game, monkeypatch) -> None:
    ids = _warded(dnd)
    cleric = dnd.write("character_create", {"name": "Cai", "template": "cleric"}, sub=OTHER)
    # Ash's DEX save: 1 fails DC 12; 1d8 radiant: 4; the concentration save 12 + 2 keeps it.
    _dice(monkeypatch, 1, 4, 12)

    cast = _cast(dnd, cleric["character"]["id"], ids["ash"], "sacred_flame", sub=OTHER)

    assert cast["damage"]["concentration"] == {
        "spell": "Shield of Faith", "kept": True, "save": _save(12, 10),
    }  # fmt: skip
    assert _still_warded(dnd, ids)


def test_being_stunned_ends_it(dnd: Game) -> None:
    ids = _warded(dnd)

    stunned = dnd.write("condition_add", {"target_id": ids["ash"], "condition": "stunned"})

    assert stunned["concentration"] == {
        "spell": "Shield of Faith", "kept": False, "reason": "Ash is stunned",
    }  # fmt: skip
    assert stunned["receipt"]["changed_scopes"] == [f"character:{ids['ash']}", "character:pc-2"]
    assert not _still_warded(dnd, ids)


def test_a_condition_that_leaves_the_caster_able_keeps_it(dnd: Game) -> None:
    ids = _warded(dnd)
    prone = dnd.write("condition_add", {"target_id": ids["ash"], "condition": "prone"})
    assert "concentration" not in prone
    assert _still_warded(dnd, ids)


def test_a_monsters_concentration_save_shows_its_total_not_its_modifier(
    dnd: Game, monkeypatch, tmp_path: Path
) -> None:
    ids = _party(dnd)

    def concentrating(state: dict[str, Any]) -> None:
        goblin = state["characters"][ids["goblin"]]
        goblin["concentration"] = {"spell": "shield_of_faith", "target_id": ids["goblin"]}
        goblin["effects"] = [{**SHIELD, "from": ids["goblin"]}]

    _rewrite(dnd, tmp_path / "d.sqlite3", concentrating)
    _dice(monkeypatch, 14, 2, 10, 14, 2, 10)  # each: 14 + 3 hits AC 17; 2 + 1; its save

    seen = {
        sub: dnd.write("attack", {"attacker_id": ids["ash"], "target_id": ids["goblin"]}, sub=sub)
        for sub in (GM, PLAYER)
    }

    assert seen[GM]["damage"]["effect"]["concentration"]["save"]["ability_modifier"] == 0
    assert seen[PLAYER]["damage"]["effect"]["concentration"] == {
        "spell": "Shield of Faith",
        "kept": True,
        "save": {"mode": "normal", "ability": "con", "bonus": 0, "total": 10, "dc": 10,
                 "success": True, "character_id": ids["goblin"], "character_name": "Goblin",
                 "character_kind": "monster", "kind": "save"},
    }  # fmt: skip
