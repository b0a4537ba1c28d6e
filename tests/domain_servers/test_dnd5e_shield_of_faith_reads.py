"""What the players read of Shield of Faith and concentration: the warded creature's AC with
the +2 and the effect named, the caster's concentration on its sheet, and the spell among a
cleric's castable spells."""

from __future__ import annotations

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _char, _party
from tests.domain_servers.test_dnd5e_table_rules import _turn_of

SUBS = (GM, PLAYER, OTHER)


def test_the_warded_creature_reads_its_ac_with_the_bonus_and_the_effect_named(dnd: Game) -> None:
    ids = _party(dnd)
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")

    for sub in SUBS:
        bram = _char(dnd, ids["bram"], sub)
        assert (bram["ac"], bram["effects"]) == (
            18,
            [{"spell": "shield_of_faith", "name": "Shield of Faith", "ac_bonus": 2,
              "from": ids["ash"]}],
        )  # fmt: skip
        assert "concentration" not in bram


def test_the_caster_reads_what_it_concentrates_on(dnd: Game) -> None:
    ids = _party(dnd)
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")

    for sub in SUBS:
        ash = _char(dnd, ids["ash"], sub)
        assert ash["concentration"] == {
            "spell": "shield_of_faith",
            "name": "Shield of Faith",
            "target_id": ids["bram"],
            "target_name": "Bram",
        }
        assert ash["sheet"]["concentration"] == "Shield of Faith"
        assert (ash["ac"], "effects" in ash) == (18, False)


def test_once_it_ends_the_reads_are_as_before(dnd: Game) -> None:
    ids = _party(dnd)
    before = {char_id: _char(dnd, char_id, PLAYER) for char_id in (ids["ash"], ids["bram"])}
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")

    dnd.write("condition_add", {"target_id": ids["ash"], "condition": "incapacitated"})
    dnd.write("condition_remove", {"target_id": ids["ash"], "condition": "incapacitated"})

    after = {char_id: _char(dnd, char_id, PLAYER) for char_id in (ids["ash"], ids["bram"])}
    before[ids["ash"]]["spell_slots"]["1"]["current"] -= 1  # the slot stays spent
    assert after == before


def test_combat_status_shows_the_warded_ac(dnd: Game) -> None:
    ids = _party(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["ash"], ids["bram"], ids["goblin"]]})
    _turn_of(dnd, ids["ash"])
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")

    order = dnd.read("combat_status", sub=OTHER)["combat"]["order"]
    bram = next(e["character"] for e in order if e["id"] == ids["bram"])
    ash = next(e["character"] for e in order if e["id"] == ids["ash"])
    assert (bram["ac"], [e["name"] for e in bram["effects"]]) == (18, ["Shield of Faith"])
    assert ash["sheet"]["concentration"] == "Shield of Faith"


def test_a_warded_monster_shows_the_effect_but_its_ac_to_the_gm_alone(dnd: Game) -> None:
    ids = _party(dnd)
    _cast(dnd, ids["ash"], ids["goblin"], "shield_of_faith")
    effects = [
        {"spell": "shield_of_faith", "name": "Shield of Faith", "ac_bonus": 2, "from": ids["ash"]}
    ]

    assert _char(dnd, ids["goblin"])["ac"] == 17
    assert _char(dnd, ids["goblin"])["effects"] == effects
    for sub in (PLAYER, OTHER):
        goblin = _char(dnd, ids["goblin"], sub)
        assert (goblin["effects"], "ac" in goblin) == (effects, False)


def test_the_sheet_lists_shield_of_faith_with_its_casting_time(dnd: Game) -> None:
    ids = _party(dnd)

    listed = _char(dnd, ids["ash"], PLAYER)["sheet"]["spells"]

    assert listed[-1] == {
        "key": "shield_of_faith",
        "name": "Shield of Faith",
        "level": 1,
        "casting": "bonus_action",
        "range": 60,
        "touch": False,
        "concentration": True,
        "targets": 1,
    }
    # Each says whether it needs concentration: Bless and Shield of Faith do.
    assert [s["concentration"] for s in listed] == [False, True, False, False, True]
    assert rules.SPELLS["shield_of_faith"]["concentration"] is True
