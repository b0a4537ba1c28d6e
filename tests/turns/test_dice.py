import pytest

from apps.turns.dice import addends_text, roll_addends, roll_dropped
from apps.turns.models import Operation
from apps.turns.services.publish import dice_from
from domain_servers.common import dice


class Scripted:
    """A random stream that returns the given values in turn."""

    def __init__(self, values):
        self.values = iter(values)

    def randint(self, low, high):
        return next(self.values)


@pytest.mark.parametrize(
    ("expression", "values", "addends", "dropped"),
    [
        ("1d20", [14], [14], []),
        ("1d20+5", [12], [12, 5], []),
        ("2d6-1", [3, 4], [3, 4, -1], []),
        ("2d20kh1+3", [9, 13], [13, 3], [9]),
        ("2d20kl1", [9, 13], [9], [13]),
        ("4d6kh3", [2, 5, 2, 6], [6, 5, 2], [2]),
        ("1d8-1d4", [6, 3], [6, -3], []),
    ],
)
def test_a_rolls_addends_are_the_kept_dice_and_the_modifier(expression, values, addends, dropped):
    result = dice.roll(expression, Scripted(values))
    assert roll_addends(result) == addends
    assert sum(roll_addends(result)) == result["total"]
    assert roll_dropped(result) == dropped


def test_addends_text_is_empty_for_a_single_number():
    assert addends_text([14]) == ""
    assert addends_text([]) == ""
    assert addends_text([13, 3]) == "13 + 3"
    assert addends_text([6, -3, 2]) == "6 - 3 + 2"


def test_the_dice_panel_gets_the_addends_and_dropped_dice_of_a_roll():
    result = dice.roll("2d20kh1+3", Scripted([9, 13]))
    result["label"] = "stealth"
    op = Operation(tool="dice_roll", result={"structuredContent": result})
    assert dice_from([op], by="Nia", by_id="u-1") == [
        {
            "tool": "dice_roll",
            "label": "stealth",
            "expression": "2d20kh1+3",
            "total": 16,
            "addends": [13, 3],
            "dropped": [9],
            "by": "Nia",
            "by_id": "u-1",
        }
    ]


def test_the_dice_panel_gets_the_oracles_roll_and_answer():
    answer = {"roll": 52, "threshold": 50, "answer": "no", "twist": "but", "result": "no, but",
              "question": "Is the gate guarded?", "likelihood": "even"}  # fmt: skip
    op = Operation(tool="oracle_ask", result={"structuredContent": answer})
    assert dice_from([op], by="Nia", by_id="u-1") == [
        {
            "tool": "oracle_ask",
            "label": "Is the gate guarded?",
            "expression": "d100",
            "total": 52,
            "result": "no, but",
            "odds": "even odds",
            "by": "Nia",
            "by_id": "u-1",
        }
    ]


def test_an_attack_line_keeps_the_names_it_was_made_with():
    result = {"attacker_id": "pc-2", "target_id": "mon-3", "attacker_name": "Lyra",
              "target_name": "Goblin", "attack": "Shortsword", "hit": True, "critical": False,
              "to_hit": {"natural": 14, "total": 19}, "damage": {"total": 5,
              "damage_type": "piercing"}}  # fmt: skip
    op = Operation(tool="attack", result={"structuredContent": result})
    (line,) = dice_from([op])
    assert (line["attacker_name"], line["target_name"]) == ("Lyra", "Goblin")


@pytest.mark.parametrize("mode", ["advantage", "disadvantage", "normal"])
def test_an_attack_line_says_whether_it_was_rolled_with_advantage(mode):
    # Pack Tactics, a prone target, a foe next to an archer: the table sees why a roll was kept.
    result = {"attacker_id": "mon-3", "attacker_kind": "monster", "target_id": "pc-2",
              "attack": "Bite", "hit": True, "critical": False,
              "to_hit": {"natural": 12, "rolls": [12, 3], "mode": mode, "total": 16},
              "damage": {"total": 5, "damage_type": "piercing"}}  # fmt: skip
    op = Operation(tool="attack", result={"structuredContent": result})
    (line,) = dice_from([op])
    assert line["mode"] == mode


@pytest.mark.parametrize(("gm_only", "natural"), [(False, None), (True, 12)])
def test_a_monsters_attack_shows_its_natural_die_to_the_gm_only(gm_only, natural):
    """Its total less its natural roll is the monster's attack bonus, part of its hidden stat
    block: a line the players read shows the total against the AC alone."""
    result = {"attacker_id": "mon-3", "attacker_kind": "monster", "target_id": "pc-2",
              "attacker_name": "Goblin", "target_name": "Lyra", "attack": "Scimitar",
              "hit": True, "critical": False, "to_hit": {"natural": 12, "bonus": 4, "total": 16},
              "damage": {"total": 5, "damage_type": "slashing"}}  # fmt: skip
    op = Operation(tool="attack", result={"structuredContent": result})
    (line,) = dice_from([op], gm_only=gm_only)
    assert (line["natural"], line["total"], line["damage"]) == (natural, 16, 5)


def test_a_characters_attack_shows_its_natural_die_to_all():
    result = {"attacker_id": "pc-2", "attacker_kind": "pc", "target_id": "mon-3",
              "attack": "Shortsword", "hit": False, "critical": False,
              "to_hit": {"natural": 7, "total": 12}, "damage": None}  # fmt: skip
    op = Operation(tool="attack", result={"structuredContent": result})
    (line,) = dice_from([op])
    assert (line["natural"], line["total"]) == (7, 12)


def test_a_check_line_says_what_was_checked_and_whose():
    checked = {"character_id": "pc-2", "character_name": "Lyra", "kind": "check",
               "skill": "sleight_of_hand", "ability": "dex", "total": 12, "dc": 10,
               "success": True}  # fmt: skip
    saved = {**checked, "kind": "save", "skill": None, "ability": "dex", "success": False}
    ops = [Operation(tool=t, result={"structuredContent": r})
           for t, r in (("ability_check", checked), ("saving_throw", saved))]  # fmt: skip
    assert [line["label"] for line in dice_from(ops)] == [
        "Sleight of hand check · Lyra",
        "Dex save · Lyra",
    ]


def test_the_dice_panel_gets_everyones_initiative_when_combat_starts():
    order = [
        {"id": "pc-1", "initiative": 17, "character": {"name": "Ilsa", "hp": {"current": 9}}},
        {"id": "m-1", "initiative": 9, "character": {"name": "Goblin"}},
    ]
    op = Operation(
        step=1, tool="combat_start",
        result={"structuredContent": {"combat": {"round": 1, "order": order}}},
    )  # fmt: skip
    assert dice_from([op]) == [
        {"tool": "combat_start", "label": "Initiative · Ilsa", "total": 17},
        {"tool": "combat_start", "label": "Initiative · Goblin", "total": 9},
    ]


def test_the_dice_panel_gets_a_potion_and_a_death_save():
    potion = dice.roll("2d4+2", Scripted([3, 2]))
    heal = Operation(
        step=1, tool="heal",
        result={"structuredContent": {"potion": potion, "target_name": "Bram", "healed": 7}},
    )  # fmt: skip
    save = Operation(
        step=2, tool="death_save",
        result={"structuredContent": {"natural": 4, "outcome": "failure",
                                      "character_name": "Lyra"}},
    )  # fmt: skip
    assert dice_from([heal, save]) == [
        {"tool": "heal", "label": "Potion of healing · Bram", "expression": "2d4+2",
         "total": 7, "addends": [3, 2, 2], "dropped": []},
        {"tool": "death_save", "label": "Death save · Lyra", "expression": "d20", "total": 4,
         "result": "failure"},
    ]  # fmt: skip
