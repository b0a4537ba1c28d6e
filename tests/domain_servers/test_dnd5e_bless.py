"""Bless (SRD 5.1): a cleric's level 1 enchantment, cast with an action on up to three
creatures of the caster's choice within 30 ft (the caster may be one), one more per slot level
above 1st; concentration, up to 1 minute. Cast through `spell_cast` with `target_ids`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.domain_servers.conftest import GM, Game
from tests.domain_servers.test_dnd5e_bonus_action_spells import _budget
from tests.domain_servers.test_dnd5e_magic_missile import _rewrite
from tests.domain_servers.test_dnd5e_spellcasting import _party, _refused
from tests.domain_servers.test_dnd5e_table_rules import _turn_of

BLESS = {"spell": "bless", "name": "Bless", "dice": "1d4"}


def _bless(dnd: Game, caster: str, *targets: str, sub: str = GM, **extra: Any) -> dict[str, Any]:
    args = {"caster_id": caster, "target_ids": list(targets), "spell": "bless", **extra}
    return dnd.write("spell_cast", args, sub=sub)


def _stored(dnd: Game, char_id: str) -> dict[str, Any]:
    return dnd.state()["characters"][char_id]


def test_bless_spends_a_slot_and_the_action_on_three_creatures(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["ash"])

    cast = _bless(dnd, ids["ash"], ids["ash"], ids["bram"], ids["wren"])

    assert cast.pop("receipt")["changed_scopes"] == [
        "character:pc-1", "character:pc-2", "character:pc-3", "combat",
    ]  # fmt: skip
    assert "random_stream_receipt" not in cast  # nothing is rolled until they roll
    assert cast == {
        "caster_id": ids["ash"],
        "caster_name": "Ash",
        "spell": "bless",
        "spell_name": "Bless",
        "slot_level": 1,
        "slots_left": 1,
        "casting": "action",
        "source": "spell",
        "dice": "1d4",
        "target_ids": [ids["ash"], ids["bram"], ids["wren"]],
        "target_names": ["Ash", "Bram", "Wren"],
        "target_id": ids["ash"],
        "target_name": "Ash",
    }
    assert _budget(dnd, ids["ash"]) == (0, 1)
    for target in ("ash", "bram", "wren"):
        assert _stored(dnd, ids[target])["effects"] == [{**BLESS, "from": ids["ash"]}]
    assert _stored(dnd, ids["ash"])["concentration"] == {
        "spell": "bless",
        "target_ids": [ids["ash"], ids["bram"], ids["wren"]],
    }


def test_target_id_alone_blesses_one_creature(dnd: Game) -> None:
    ids = _party(dnd)

    cast = dnd.write(
        "spell_cast", {"caster_id": ids["ash"], "target_id": ids["bram"], "spell": "bless"}
    )

    assert (cast["target_ids"], cast["target_names"]) == ([ids["bram"]], ["Bram"])
    assert _stored(dnd, ids["bram"])["effects"] == [{**BLESS, "from": ids["ash"]}]
    assert _stored(dnd, ids["ash"])["concentration"] == {
        "spell": "bless",
        "target_ids": [ids["bram"]],
    }


def test_a_fourth_creature_needs_a_2nd_level_slot(dnd: Game) -> None:
    ids = _party(dnd, level=3)
    four = [ids["ash"], ids["bram"], ids["wren"], ids["goblin"]]

    error = _refused(dnd, {"caster_id": ids["ash"], "target_ids": four, "spell": "bless"}, sub=GM)

    assert (error["code"], error["message"]) == (
        "invalid_request",
        "Bless with a level 1 slot targets up to 3 creatures, not 4 (one more per slot level "
        "above 1st)",
    )
    cast = _bless(dnd, ids["ash"], *four, slot_level=2)
    assert (cast["slot_level"], cast["slots_left"], cast["target_ids"]) == (2, 1, four)
    assert _stored(dnd, ids["goblin"])["effects"] == [{**BLESS, "from": ids["ash"]}]


def test_target_id_and_target_ids_together_or_neither_are_refused(dnd: Game) -> None:
    ids = _party(dnd)
    both = {"caster_id": ids["ash"], "target_id": ids["bram"], "target_ids": [ids["bram"]]}
    neither = {"caster_id": ids["ash"]}

    assert _refused(dnd, {**both, "spell": "bless"})["message"] == (
        "give target_id or target_ids, not both"
    )
    assert _refused(dnd, {**neither, "spell": "bless"})["message"] == (
        "give target_id, or target_ids for a spell that targets several creatures"
    )


def test_a_repeated_target_is_refused(dnd: Game) -> None:
    ids = _party(dnd)

    error = _refused(
        dnd, {"caster_id": ids["ash"], "target_ids": [ids["bram"], ids["bram"]], "spell": "bless"}
    )

    assert error["message"] == "arguments.target_ids must not repeat items"


def test_a_one_target_spell_takes_one_target(dnd: Game) -> None:
    ids = _party(dnd)
    args = {"caster_id": ids["ash"], "target_ids": [ids["bram"], ids["ash"]]}

    error = _refused(dnd, {**args, "spell": "shield_of_faith"})

    assert error["message"] == "Shield of Faith targets one creature: give target_id"


def test_bless_is_refused_on_the_dead_and_spends_nothing(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("damage_apply", {"target_id": ids["goblin"], "amount": 7})  # dead

    error = _refused(
        dnd,
        {"caster_id": ids["ash"], "target_ids": [ids["bram"], ids["goblin"]], "spell": "bless"},
        sub=GM,
    )

    assert error["message"] == "Goblin is dead"


def test_bless_reaches_30_ft_for_every_target(dnd: Game, tmp_path: Path) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["wren"]]})
    _turn_of(dnd, ids["ash"])
    _rewrite(
        dnd,
        tmp_path / "d.sqlite3",
        lambda s: s["combat"]["positions"].update(
            {ids["ash"]: [0, 0], ids["bram"]: [6, 0], ids["wren"]: [7, 0]}
        ),
    )  # Bram 30 ft away, Wren 35 ft

    error = _refused(
        dnd, {"caster_id": ids["ash"], "target_ids": [ids["bram"], ids["wren"]], "spell": "bless"}
    )

    assert (
        error["message"] == "Wren is 35 ft away from Ash; Bless reaches 30 ft. Move closer first."
    )
    assert _bless(dnd, ids["ash"], ids["bram"], ids["ash"])["target_names"] == ["Bram", "Ash"]


def test_bless_is_a_cleric_spell(dnd: Game) -> None:
    ids = _party(dnd)

    error = _refused(dnd, {"caster_id": ids["wren"], "target_ids": [ids["bram"]], "spell": "bless"})

    assert error["message"] == "Wren cannot cast Bless: it is not a wizard spell"


def test_a_bless_answers_as_spell_casts_output_schema_says(dnd: Game) -> None:
    import jsonschema

    from domain_servers.dnd5e.tools import tools

    ids = _party(dnd)
    spec = next(t for t in tools() if t.name == "spell_cast")

    jsonschema.validate(_bless(dnd, ids["ash"], ids["ash"], ids["bram"]), spec.output_schema())
