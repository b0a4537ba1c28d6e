"""Shield of Faith (SRD 5.1): a cleric's level 1 abjuration, cast with a bonus action on a
creature of the caster's choice within 60 ft, which gains +2 AC while the caster concentrates
(up to 10 minutes). Cast through `spell_cast`; every attack roll sees the bonus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import GM, Game
from tests.domain_servers.test_dnd5e_bonus_action_spells import _budget
from tests.domain_servers.test_dnd5e_magic_missile import _rewrite
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _party, _refused
from tests.domain_servers.test_dnd5e_table_rules import _turn_of

SHIELD = {"spell": "shield_of_faith", "name": "Shield of Faith", "ac_bonus": 2}


def _shield(dnd: Game, ids: dict[str, str], target: str, **extra: Any) -> dict[str, Any]:
    return _cast(dnd, ids["ash"], ids[target], "shield_of_faith", **extra)


def _stored(dnd: Game, char_id: str) -> dict[str, Any]:
    return dnd.state()["characters"][char_id]


def test_shield_of_faith_spends_a_slot_and_the_bonus_action_for_plus_2_ac(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["ash"])

    cast = _shield(dnd, ids, "bram")

    assert cast.pop("receipt")["changed_scopes"] == [
        "character:pc-1", "character:pc-2", "combat",
    ]  # fmt: skip
    assert "random_stream_receipt" not in cast  # nothing is rolled
    assert cast == {
        "caster_id": ids["ash"],
        "caster_name": "Ash",
        "spell": "shield_of_faith",
        "spell_name": "Shield of Faith",
        "slot_level": 1,
        "slots_left": 1,
        "casting": "bonus_action",
        "source": "spell",
        "ac_bonus": 2,
        "ac_before": 16,
        "ac_after": 18,
        "target_id": ids["bram"],
        "target_name": "Bram",
    }
    assert _budget(dnd, ids["ash"]) == (1, 0)
    # Kept on both: the target's bonus, and the caster's concentration that holds it.
    assert _stored(dnd, ids["bram"])["effects"] == [{**SHIELD, "from": ids["ash"]}]
    assert _stored(dnd, ids["ash"])["concentration"] == {
        "spell": "shield_of_faith",
        "target_id": ids["bram"],
    }
    assert _stored(dnd, ids["bram"])["ac"] == 16  # the stored AC is its own


def test_an_attack_on_the_warded_creature_rolls_against_its_ac_plus_2(dnd: Game) -> None:
    ids = _party(dnd)
    before = dnd.write("attack", {"attacker_id": ids["goblin"], "target_id": ids["bram"]})
    _shield(dnd, ids, "bram")

    after = dnd.write("attack", {"attacker_id": ids["goblin"], "target_id": ids["bram"]})

    assert (before["to_hit"]["target_ac"], after["to_hit"]["target_ac"]) == (16, 18)


def test_a_goblin_attack_that_would_hit_ac_16_misses_ac_18(dnd: Game, monkeypatch) -> None:
    from tests.domain_servers.test_dnd5e_cantrips import _dice

    ids = _party(dnd)
    _shield(dnd, ids, "bram")
    _dice(monkeypatch, 12)  # 12 + 4 = 16: Bram's own AC, not the warded one

    attack = dnd.write("attack", {"attacker_id": ids["goblin"], "target_id": ids["bram"]})

    assert (attack["to_hit"]["total"], attack["to_hit"]["target_ac"]) == (16, 18)
    assert (attack["hit"], attack["damage"]) == (False, None)


def test_the_caster_may_ward_itself(dnd: Game) -> None:
    ids = _party(dnd)

    cast = _shield(dnd, ids, "ash")

    assert (cast["ac_before"], cast["ac_after"]) == (18, 20)
    assert _stored(dnd, ids["ash"])["effects"] == [{**SHIELD, "from": ids["ash"]}]


def test_a_ward_on_a_monster_keeps_its_ac_from_the_players(dnd: Game) -> None:
    ids = _party(dnd)

    cast = _shield(dnd, ids, "goblin")

    assert (cast["ac_bonus"], "ac_before" in cast, "ac_after" in cast) == (2, False, False)
    assert rules.armor_class(_stored(dnd, ids["goblin"])) == 17  # a goblin's AC 15


def test_armor_class_adds_each_spell_once() -> None:
    bram = {"ac": 16}
    assert rules.armor_class(bram) == 16
    bram["effects"] = [{**SHIELD, "from": "pc-1"}]
    assert rules.armor_class(bram) == 18
    # Two clerics' Shields of Faith do not combine (SRD: the same spell's effects don't).
    bram["effects"].append({**SHIELD, "from": "pc-3"})
    assert rules.armor_class(bram) == 18


def test_shield_of_faith_follows_the_bonus_action_spell_rule(dnd: Game) -> None:
    ids = _party(dnd, level=3)
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": 5})
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["ash"])
    _cast(dnd, ids["ash"], ids["bram"], "cure_wounds")

    error = _refused(dnd, {"caster_id": ids["ash"], "target_id": ids["bram"], **_spell()})

    assert (error["code"], error["message"]) == (
        "invalid_request",
        "Ash cast Cure Wounds this turn: Shield of Faith is cast with a bonus action, which "
        "allows no other spell in the same turn but a cantrip with a casting time of 1 action",
    )


def _spell() -> dict[str, str]:
    return {"spell": "shield_of_faith"}


def test_shield_of_faith_is_cast_on_the_casters_turn(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["bram"])

    error = _refused(dnd, {"caster_id": ids["ash"], "target_id": ids["bram"], **_spell()})

    assert error["message"] == "it is Bram's turn, not Ash's"


def test_shield_of_faith_reaches_60_ft(dnd: Game, tmp_path: Path) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["ash"])
    _rewrite(
        dnd,
        tmp_path / "d.sqlite3",
        lambda s: s["combat"]["positions"].update({ids["ash"]: [0, 0], ids["bram"]: [11, 0]}),
    )  # 55 ft: within range; then 65 ft

    assert _shield(dnd, ids, "bram")["ac_after"] == 18
    dnd.write("combat_end_turn")
    _turn_of(dnd, ids["ash"])
    _rewrite(
        dnd,
        tmp_path / "d.sqlite3",
        lambda s: s["combat"].update(
            grid={"width": 20, "height": 6},
            positions={**s["combat"]["positions"], ids["bram"]: [13, 0]},
        ),
    )
    error = _refused(dnd, {"caster_id": ids["ash"], "target_id": ids["bram"], **_spell()})
    assert error["message"] == (
        "Bram is 65 ft away from Ash; Shield of Faith reaches 60 ft. Move closer first."
    )


def test_only_a_cleric_casts_it_and_never_on_the_dead(dnd: Game) -> None:
    ids = _party(dnd)
    wren = {"caster_id": ids["wren"], "target_id": ids["bram"], **_spell()}
    assert _refused(dnd, wren)["message"] == (
        "Wren cannot cast Shield of Faith: it is not a wizard spell"
    )
    dnd.write("damage_apply", {"target_id": ids["goblin"], "amount": 7})  # dead
    ash = {"caster_id": ids["ash"], "target_id": ids["goblin"], **_spell()}
    assert _refused(dnd, ash, sub=GM)["message"] == "Goblin is dead"


def test_a_shield_of_faith_answers_as_spell_casts_output_schema_says(dnd: Game) -> None:
    import jsonschema

    from domain_servers.dnd5e.tools import tools

    ids = _party(dnd)
    spec = next(t for t in tools() if t.name == "spell_cast")

    cast = _shield(dnd, ids, "bram")

    # It rolls nothing, so it has no stream receipt: a client validating the answer accepts it.
    assert "random_stream_receipt" not in cast
    jsonschema.validate(cast, spec.output_schema())
