"""SRD 5.1 conditions on ability checks and saves, and unconscious creatures falling prone."""

from __future__ import annotations

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import PLAYER, Game, ScriptedStream
from tests.domain_servers.test_dnd5e_rules import pc

FRIGHTENED = "Ash is frightened by a source taken to be in sight"


def _roll(char: dict, *dice: int, ability: str = "str", save: bool = False, **flags: bool):
    return rules.check(
        char,
        ScriptedStream(*dice),
        ability=ability,
        dc=10,
        proficient=False,
        advantage=flags.get("advantage", False),
        disadvantage=flags.get("disadvantage", False),
        bonus=0,
        save=save,
    )


def _mode(result: dict) -> tuple:
    return (
        result["mode"],
        result["rolls"],
        result["natural"],
        result.get("advantage_reasons"),
        result.get("disadvantage_reasons"),
    )


# -- checks and saves -----------------------------------------------------------------------------


def test_a_poisoned_creature_has_disadvantage_on_ability_checks() -> None:
    result = _roll(pc(conditions=["poisoned"]), 15, 4)
    assert _mode(result) == ("disadvantage", [15, 4], 4, None, ["Ash is poisoned"])
    # STR 16: +3, so 4 + 3 = 7 against DC 10.
    assert (result["total"], result["success"]) == (7, False)


def test_a_frightened_creature_has_disadvantage_on_ability_checks_its_source_taken_as_seen():
    result = _roll(pc(conditions=["frightened"]), 15, 4, ability="dex")
    assert _mode(result) == ("disadvantage", [15, 4], 4, None, [FRIGHTENED])


def test_poisoned_and_frightened_are_both_named_and_roll_one_disadvantage() -> None:
    result = _roll(pc(conditions=["frightened", "poisoned"]), 15, 4)
    assert _mode(result) == (
        "disadvantage", [15, 4], 4, None, [FRIGHTENED, "Ash is poisoned"],
    )  # fmt: skip


def test_poisoned_and_frightened_do_not_touch_saving_throws() -> None:
    result = _roll(pc(conditions=["frightened", "poisoned"]), 15, ability="con", save=True)
    assert _mode(result) == ("normal", [15], 15, None, None)


def test_a_restrained_creature_has_disadvantage_on_dexterity_saves_only() -> None:
    restrained = pc(conditions=["restrained"])
    dex = _roll(restrained, 15, 4, ability="dex", save=True)
    assert _mode(dex) == ("disadvantage", [15, 4], 4, None, ["Ash is restrained"])
    # Not STR saves, nor DEX checks.
    assert _mode(_roll(restrained, 15, ability="str", save=True)) == (
        "normal", [15], 15, None, None,
    )  # fmt: skip
    assert _mode(_roll(restrained, 15, ability="dex")) == ("normal", [15], 15, None, None)


def test_advantage_cancels_a_conditions_disadvantage_and_the_reason_still_shows() -> None:
    result = _roll(pc(conditions=["poisoned"]), 15, advantage=True)
    assert _mode(result) == ("normal", [15], 15, None, ["Ash is poisoned"])
    # The caller's own disadvantage with the condition's is still one disadvantage.
    both = _roll(pc(conditions=["poisoned"]), 15, 4, disadvantage=True)
    assert _mode(both) == ("disadvantage", [15, 4], 4, None, ["Ash is poisoned"])


def test_a_restrained_and_paralyzed_creature_still_fails_its_dexterity_save() -> None:
    result = _roll(pc(conditions=["paralyzed", "restrained"]), 20, 19, ability="dex", save=True)
    assert _mode(result) == ("disadvantage", [20, 19], 19, None, ["Ash is restrained"])
    assert (result["success"], result["automatic_failure"]) == (False, "Ash is paralyzed")


def test_a_poisoned_characters_check_through_the_tool_says_why(dnd: Game) -> None:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash_id = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    dnd.write("condition_add", {"target_id": ash_id, "condition": "poisoned"})
    check = dnd.write(
        "ability_check", {"character_id": ash_id, "skill": "athletics", "dc": 10}, sub=PLAYER
    )
    assert (check["mode"], len(check["rolls"]), check["disadvantage_reasons"]) == (
        "disadvantage", 2, ["Ash is poisoned"],
    )  # fmt: skip
    assert check["natural"] == min(check["rolls"])
    assert check["random_stream_receipt"]["draw_count"] == 2


def test_a_restrained_monsters_save_narrowed_shows_the_reason_not_the_dice(dnd: Game) -> None:
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    dnd.write("condition_add", {"target_id": goblin, "condition": "restrained"})
    result = dnd.call(
        "saving_throw",
        {
            "character_id": goblin,
            "ability": "dex",
            "dc": 12,
            "expected_revision": dnd.revision,
            "idempotency_key": "save",
        },
        view="public",
    )
    shown = result.structured_content
    assert (shown["mode"], shown["disadvantage_reasons"]) == (
        "disadvantage",
        ["Goblin is restrained"],
    )
    assert not {"natural", "rolls", "ability_modifier", "proficiency"} & set(shown)


# -- unconscious means prone ----------------------------------------------------------------------


def _awake(dnd: Game) -> str:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    dnd.write("phase_set", {"phase": "play"})
    return ash["character"]["id"]


def test_knocking_a_creature_unconscious_also_makes_it_prone(dnd: Game) -> None:
    ash = _awake(dnd)
    added = dnd.write("condition_add", {"target_id": ash, "condition": "unconscious"})
    assert added["conditions"] == ["prone", "unconscious"]
    assert added["receipt"]["changed_scopes"] == [f"character:{ash}"]
    card = dnd.read("character_get", {"character_id": ash}, sub=PLAYER)["character"]
    assert card["conditions"] == ["prone", "unconscious"]


def test_an_already_prone_creature_knocked_unconscious_is_prone_once(dnd: Game) -> None:
    ash = _awake(dnd)
    dnd.write("condition_add", {"target_id": ash, "condition": "prone"})
    added = dnd.write("condition_add", {"target_id": ash, "condition": "unconscious"})
    assert added["conditions"] == ["prone", "unconscious"]


def test_waking_up_leaves_the_creature_prone_until_it_stands(dnd: Game) -> None:
    ash = _awake(dnd)
    dnd.write("condition_add", {"target_id": ash, "condition": "unconscious"})
    removed = dnd.write("condition_remove", {"target_id": ash, "condition": "unconscious"})
    assert removed["conditions"] == ["prone"]
    stood = dnd.write("stand_up", {"character_id": ash}, sub=PLAYER)
    assert stood["conditions"] == []


def test_dropping_to_0_hp_knocks_a_character_unconscious_and_prone(dnd: Game) -> None:
    ash = _awake(dnd)
    hp = dnd.read("character_get", {"character_id": ash})["character"]["hp"]
    dnd.write("damage_apply", {"target_id": ash, "amount": hp["current"]})
    card = dnd.read("character_get", {"character_id": ash}, sub=PLAYER)["character"]
    assert (card["hp"]["current"], card["conditions"]) == (0, ["prone", "unconscious"])
    # Healed, it wakes up still prone.
    dnd.write("heal", {"target_id": ash, "amount": 3})
    card = dnd.read("character_get", {"character_id": ash}, sub=PLAYER)["character"]
    assert card["conditions"] == ["prone"]
