"""dnd5e rules: pure mechanics with scripted dice, and combat through the real pipeline."""

from __future__ import annotations

import copy
import re

import pytest

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game, ScriptedStream


def pc(**overrides) -> dict:
    char = {
        "id": "pc-1",
        "name": "Ash",
        "kind": "pc",
        "abilities": {"str": 16, "dex": 14, "con": 12, "int": 10, "wis": 8, "cha": 13},
        "proficiency_bonus": 2,
        "ac": 15,
        "hp": {"current": 20, "max": 20, "temp": 0},
        "speed": 30,
        "save_proficiencies": ["str"],
        "skill_proficiencies": ["athletics"],
        "resistances": [],
        "vulnerabilities": [],
        "immunities": [],
        "conditions": [],
        "death_saves": {"successes": 0, "failures": 0},
        "attacks": [
            {
                "name": "Axe",
                "ability": "str",
                "proficient": True,
                "damage": "1d8",
                "damage_type": "slashing",
            }
        ],
    }
    char.update(overrides)
    return char


def test_modifiers_proficiency_and_hit_points() -> None:
    assert [rules.modifier(s) for s in (1, 3, 8, 9, 10, 11, 12, 30)] == [
        -5,
        -4,
        -1,
        -1,
        0,
        0,
        1,
        10,
    ]
    assert [rules.proficiency_bonus(lv) for lv in (1, 4, 5, 8, 9, 13, 17, 20)] == [
        2,
        2,
        3,
        3,
        4,
        5,
        6,
        6,
    ]
    assert rules.hit_points(10, 14, 1) == 12
    assert rules.hit_points(10, 14, 3) == 12 + 2 * 8


def test_advantage_and_disadvantage_cancel() -> None:
    both = rules.roll_d20(ScriptedStream(7), True, True)
    assert both == {"natural": 7, "rolls": [7], "mode": "normal"}
    adv = rules.roll_d20(ScriptedStream(4, 17), True, False)
    assert adv == {"natural": 17, "rolls": [4, 17], "mode": "advantage"}
    dis = rules.roll_d20(ScriptedStream(4, 17), False, True)
    assert dis["natural"] == 4


def test_check_meets_dc_and_naturals_do_not_matter() -> None:
    result = rules.check(
        pc(),
        ScriptedStream(10),
        ability="str",
        dc=15,
        proficient=True,
        advantage=False,
        disadvantage=False,
        bonus=0,
    )
    assert (result["total"], result["success"]) == (15, True)
    fail = rules.check(
        pc(),
        ScriptedStream(20),
        ability="wis",
        dc=25,
        proficient=False,
        advantage=False,
        disadvantage=False,
        bonus=0,
    )
    assert (fail["total"], fail["success"]) == (19, False)


def test_natural_20_crits_with_doubled_dice_and_natural_1_misses() -> None:
    target = pc(id="mon-1", kind="monster", ac=30, hp={"current": 40, "max": 40, "temp": 0})
    crit = rules.resolve_attack(
        pc(),
        target,
        pc()["attacks"][0],
        ScriptedStream(20, 3, 5),
        advantage=False,
        disadvantage=False,
    )
    assert crit["hit"] is True and crit["critical"] is True
    assert crit["damage"]["rolls"][0]["results"] == [3, 5]
    assert crit["damage"]["total"] == 3 + 5 + 3
    assert target["hp"]["current"] == 40 - 11
    target_low = pc(id="mon-2", kind="monster", ac=2)
    miss = rules.resolve_attack(
        pc(), target_low, pc()["attacks"][0], ScriptedStream(1), advantage=False, disadvantage=False
    )
    assert miss["hit"] is False and miss["damage"] is None
    hit = rules.resolve_attack(
        pc(),
        pc(id="x", ac=15),
        pc()["attacks"][0],
        ScriptedStream(10, 4),
        advantage=False,
        disadvantage=False,
    )
    assert (hit["to_hit"]["total"], hit["hit"], hit["critical"]) == (15, True, False)
    assert hit["damage"]["total"] == 7


@pytest.mark.parametrize(
    ("resist", "vuln", "immune", "amount", "expected"),
    [
        ((), (), (), 9, 9),
        (("fire",), (), (), 9, 4),
        ((), ("fire",), (), 9, 18),
        ((), (), ("fire",), 9, 0),
    ],
)
def test_damage_type_adjustments(resist, vuln, immune, amount, expected) -> None:
    char = pc(
        resistances=list(resist),
        vulnerabilities=list(vuln),
        immunities=list(immune),
        hp={"current": 30, "max": 30, "temp": 0},
    )
    effect = rules.apply_damage(char, amount, "fire")
    assert effect["adjusted"] == expected
    assert char["hp"]["current"] == 30 - expected


def test_temp_hp_absorbs_first_and_zero_hp_knocks_out() -> None:
    char = pc(hp={"current": 10, "max": 20, "temp": 5})
    effect = rules.apply_damage(char, 12, "slashing")
    assert effect["absorbed_by_temp_hp"] == 5
    assert char["hp"] == {"current": 3, "max": 20, "temp": 0}
    rules.apply_damage(char, 10, "slashing")
    assert char["hp"]["current"] == 0
    assert char["conditions"] == ["prone", "unconscious"]
    rules.apply_damage(char, 1, "slashing", critical=True)
    assert char["death_saves"] == {"successes": 0, "failures": 2}
    rules.apply_damage(char, 1, "slashing")
    assert "dead" in char["conditions"]
    with pytest.raises(Exception, match="dead and cannot be healed"):
        rules.heal(char, 5)


def test_monsters_die_at_zero_and_massive_damage_kills() -> None:
    monster = pc(kind="monster", hp={"current": 5, "max": 5, "temp": 0})
    rules.apply_damage(monster, 5, "slashing")
    assert monster["conditions"] == ["dead"]
    hero = pc(hp={"current": 5, "max": 20, "temp": 0})
    rules.apply_damage(hero, 25, "slashing")
    assert hero["conditions"] == ["dead"]


def test_heal_caps_at_max_and_clears_unconscious() -> None:
    char = pc(
        hp={"current": 0, "max": 20, "temp": 0},
        conditions=["prone", "unconscious"],
        death_saves={"successes": 1, "failures": 2},
    )
    result = rules.heal(char, 50)
    assert result == {
        "target_id": "pc-1",
        "healed": 20,
        "hp_before": 0,
        "hp_after": 20,
        "revived": True,
    }
    assert char["conditions"] == ["prone"]
    assert char["death_saves"] == {"successes": 0, "failures": 0}


def test_death_saves() -> None:
    dying = pc(hp={"current": 0, "max": 20, "temp": 0}, conditions=["unconscious"])
    revived = rules.death_save(copy.deepcopy(dying), ScriptedStream(20))
    assert revived["outcome"] == "revived" and revived["hp"]["current"] == 1
    assert revived["conditions"] == []
    char = copy.deepcopy(dying)
    assert rules.death_save(char, ScriptedStream(1))["death_saves"]["failures"] == 2
    assert rules.death_save(char, ScriptedStream(9))["outcome"] == "dead"
    stable = copy.deepcopy(dying)
    outcomes = [rules.death_save(stable, ScriptedStream(v))["outcome"] for v in (10, 15, 12)]
    assert outcomes == ["success", "success", "stable"]
    assert "stable" in stable["conditions"]
    with pytest.raises(Exception, match="Ash is stable and makes no death saves"):
        rules.death_save(stable, ScriptedStream(10))


# -- through the pipeline ---------------------------------------------------------------------


def _party(game: Game) -> tuple[str, str, str]:
    hero = game.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)[
        "character"
    ]["id"]
    game.write("phase_set", {"phase": "play"})
    goblin = game.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    rat = game.write("monster_spawn", {"monster_key": "giant_rat", "name": "Rat"})["character"][
        "id"
    ]
    return hero, goblin, rat


def test_a_second_monster_of_a_kind_gets_a_name_of_its_own(dnd: Game) -> None:
    _party(dnd)
    spawned = [
        dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["name"] for _ in range(2)
    ]
    assert spawned == ["Goblin 2", "Goblin 3"]


def test_a_refusal_tells_apart_two_characters_of_one_name(dnd: Game) -> None:
    hero, goblin, _rat = _party(dnd)
    # Named alike on purpose: a spawned second goblin would be "Goblin 2", a character is named
    # as its player likes.
    twin = dnd.write("character_create", {"name": "Goblin", "template": "fighter"})["character"][
        "id"
    ]
    started = dnd.write("combat_start", {"participant_ids": [hero, goblin, twin]})
    names = {e["id"]: e["character"]["name"] for e in started["combat"]["order"]}
    assert (names[goblin], names[twin]) == ("Goblin", "Goblin")
    current = started["combat"]["current"]
    waiting = next(i for i in (goblin, twin) if i != current)
    who = {hero: "Ash", goblin: f"Goblin ({goblin})", twin: f"Goblin ({twin})"}
    error = dnd.fail("attack", {"attacker_id": waiting, "target_id": hero})
    assert error["message"] == f"it is {who[current]}'s turn, not {who[waiting]}'s"


def test_combat_order_turns_and_action_economy(dnd: Game) -> None:
    hero, goblin, rat = _party(dnd)
    started = dnd.write("combat_start", {"participant_ids": [rat, hero, goblin]})
    order = started["combat"]["order"]
    keys = [(-e["initiative"], -e["character"]["abilities"]["dex"], e["id"]) for e in order]
    assert keys == sorted(keys)
    assert started["receipt"]["changed_scopes"] == ["campaign", "combat", "phase"]
    assert started["random_stream_receipt"]["draw_count"] == 3
    assert dnd.read("campaign_get")["campaign"]["phase"] == "combat"
    assert dnd.fail("phase_set", {"phase": "play"})["code"] == "invalid_request"
    current = started["combat"]["current"]
    waiting = next(e["id"] for e in order if e["id"] != current)
    # Refusals name characters as players know them; the id only tells apart a shared name.
    names = {e["id"]: e["character"]["name"] for e in order}
    shared = [n for n in names.values() if list(names.values()).count(n) > 1]
    who = {i: f"{n} ({i})" if n in shared else n for i, n in names.items()}
    error = dnd.fail("attack", {"attacker_id": waiting, "target_id": current})
    assert error["message"] == f"it is {who[current]}'s turn, not {who[waiting]}'s"
    struck = dnd.write("attack", {"attacker_id": current, "target_id": waiting})
    error = dnd.fail("attack", {"attacker_id": current, "target_id": waiting})
    assert error["message"] == f"{who[current]} has no action left this turn"
    # End-turn skips the dead, so the round wraps sooner when the strike killed.
    killed = bool(struck["damage"] and struck["damage"]["effect"]["dead"])
    turns = 2 if killed else 3
    rounds = [dnd.write("combat_end_turn")["round"] for _ in range(turns)]
    assert rounds == ([1, 2] if killed else [1, 1, 2])
    assert dnd.read("combat_status")["combat"]["current"] == current
    rendered = dnd.call("combat_render", {})
    assert [block.type for block in rendered.content] == ["text", "image"]
    assert rendered.content[1].mime_type == "image/svg+xml"
    assert len(rendered.structured_content["grid"]["tokens"]) == 3
    ended = dnd.write("combat_end")
    assert ended["rounds"] == 2
    assert dnd.read("campaign_get")["campaign"]["phase"] == "play"


def test_players_only_act_for_their_characters(dnd: Game) -> None:
    hero, goblin, _ = _party(dnd)
    error = dnd.fail(
        "ability_check", {"character_id": hero, "skill": "athletics", "dc": 10}, sub=OTHER
    )
    assert error["code"] == "authorization_denied"
    check = dnd.write(
        "ability_check", {"character_id": hero, "skill": "athletics", "dc": 10}, sub=PLAYER
    )
    assert check["proficiency"] == 2 and check["ability"] == "str"
    assert dnd.fail("damage_apply", {"target_id": goblin, "amount": 3}, sub=PLAYER)["code"] == (
        "authorization_denied"
    )
    damaged = dnd.write("damage_apply", {"target_id": goblin, "amount": 3})
    assert damaged["hp_after"] == {"current": 4, "max": 7, "temp": 0}
    view = dnd.read("character_get", {"character_id": goblin}, sub=PLAYER)["character"]
    assert view["status"] == "wounded" and "hp" not in view


def test_a_player_with_no_character_named_acts_for_none(dnd: Game) -> None:
    """The empty `character` claim (no character bound to the player in Django): even a
    character the domain lists them as controlling is refused; without a claim it is allowed."""
    hero, _goblin, _ = _party(dnd)
    args = {"character_id": hero, "skill": "athletics", "dc": 10}
    result = dnd.call(
        "ability_check",
        {**args, "expected_revision": dnd.revision, "idempotency_key": "unbound"},
        sub=PLAYER,
        character="",
    )
    assert result.is_error
    assert result.structured_content["error"]["code"] == "authorization_denied"
    assert result.structured_content["error"]["message"] == (
        "the requester has no character to act as, so not Ash"
    )
    assert dnd.write("ability_check", args, sub=PLAYER, character=hero)["ability"] == "str"


def test_failed_rule_leaves_revision_and_stream_unchanged(dnd: Game) -> None:
    hero, goblin, _ = _party(dnd)
    before = dnd.state()
    dnd.write("damage_apply", {"target_id": goblin, "amount": 100})
    error = dnd.fail("attack", {"attacker_id": hero, "target_id": goblin}, sub=PLAYER)
    assert error == {
        "code": "invalid_request",
        "message": "Goblin is already dead",
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }
    after = dnd.state()
    assert after["random_stream"] == before["random_stream"]
    assert dnd.read("campaign_get")["authority_revision"] == dnd.revision
    assert GM in after["members"]


def test_players_never_see_a_monster_armor_class_in_attack_results(dnd: Game) -> None:
    hero, _, _ = _party(dnd)
    ogres = [dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"] for _ in "ab"]
    other = dnd.write("character_create", {"name": "Wren", "template": "rogue"}, sub=OTHER)
    # A player's strike at a monster: the stat block's AC stays hidden.
    struck = dnd.write("attack", {"attacker_id": hero, "target_id": ogres[0]}, sub=PLAYER)
    assert set(struck["to_hit"]) == {
        "natural",
        "rolls",
        "mode",
        "bonus",
        "total",
        "advantage_reasons",
        "disadvantage_reasons",
    }
    # Names come with the result (the second ogre is "Ogre 2": never two of one name).
    assert (struck["attacker_name"], struck["target_name"]) == ("Ash", "Ogre")
    # A character's AC is not hidden, and the GM sees everything.
    pvp = dnd.write(
        "attack", {"attacker_id": hero, "target_id": other["character"]["id"]}, sub=PLAYER
    )
    assert pvp["to_hit"]["target_ac"] == other["character"]["ac"]
    by_gm = dnd.write("attack", {"attacker_id": hero, "target_id": ogres[1]})
    assert by_gm["to_hit"]["target_ac"] == 11


# -- distance on the combat grid -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "distance", "threatened", "made"),
    [
        ({"name": "Longsword"}, 5, False, ("melee", [])),
        ({"name": "Longsword"}, 10, False, None),
        ({"name": "Glaive"}, 10, False, ("melee", [])),
        ({"name": "Spear", "reach": 10}, 15, False, None),
        ({"name": "Dagger"}, 5, True, ("melee", [])),
        ({"name": "Dagger"}, 20, False, ("ranged", [])),
        ({"name": "Dagger"}, 25, True, ("ranged", ["long range", "hostile within 5 ft"])),
        ({"name": "Dagger"}, 65, False, None),
        ({"name": "Shortbow"}, 5, True, ("ranged", ["hostile within 5 ft"])),
        ({"name": "Shortbow"}, 320, False, ("ranged", ["long range"])),
        ({"name": "Shortbow"}, 325, False, None),
        ({"name": "Fire Bolt", "range": 120}, 120, False, ("ranged", [])),
        ({"name": "Fire Bolt", "range": 120}, 125, False, None),
    ],
)
def test_an_attack_reaches_as_far_as_its_weapon(attack, distance, threatened, made) -> None:
    result = rules.attack_at_distance(attack, distance, threatened)
    expected = None
    if made is not None:
        expected = {"distance_ft": distance, "kind": made[0], "disadvantage": made[1]}
    assert result == expected


def test_grid_distance_counts_diagonals_as_5_ft_and_weapons_say_their_reach() -> None:
    assert rules.grid_distance([1, 0], [10, 0]) == 45
    assert rules.grid_distance([5, 0], [6, 1]) == 5
    assert rules.grid_distance([0, 0], [3, 7]) == 35
    assert rules.distance_text({"name": "Longsword"}) == "Longsword reaches 5 ft"
    assert rules.distance_text({"name": "Glaive"}) == "Glaive reaches 10 ft"
    assert rules.distance_text({"name": "Shortbow"}) == "Shortbow has a range of 80/320 ft"
    assert rules.distance_text({"name": "Fire Bolt", "range": 120}) == (
        "Fire Bolt has a range of 120 ft"
    )
    assert rules.distance_text({"name": "Dagger"}) == "Dagger reaches 5 ft, or 20/60 ft thrown"


def _weapon(name: str, ability: str = "str", **distances: int) -> dict:
    return {
        "name": name,
        "ability": ability,
        "proficient": True,
        "damage": "1d4",
        "damage_type": "bludgeoning",
        **distances,
    }


def _armed_party(dnd: Game) -> tuple[str, str]:
    """Ash with a longsword, a sling, a glaive and throwing stars, and a goblin; combat starts
    with the two face to face, Ash at (5, 0) and the goblin at (6, 0), the goblin first."""
    attacks = [
        _weapon("Longsword"),
        _weapon("Sling", "dex"),
        _weapon("Glaive"),
        _weapon("Throwing Star", "dex", reach=5, range=10, long_range=40),
    ]
    hero = dnd.write(
        "character_create", {"name": "Ash", "template": "fighter", "attacks": attacks}, sub=PLAYER
    )["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    started = dnd.write("combat_start", {"participant_ids": [hero, goblin]})
    order = [(e["id"], e["position"]) for e in started["combat"]["order"]]
    assert order == [(goblin, [6, 0]), (hero, [5, 0])]
    return hero, goblin


def test_melee_attacks_out_of_reach_are_refused_and_change_nothing(dnd: Game) -> None:
    hero, goblin = _armed_party(dnd)
    dnd.write("combat_move", {"character_id": goblin, "x": 9, "y": 0})
    dnd.write("combat_end_turn")
    dnd.write("combat_move", {"character_id": hero, "x": 0, "y": 0}, sub=PLAYER)
    before, revision = dnd.state(), dnd.revision
    for attack_name, reach in [
        ("Longsword", "Longsword reaches 5 ft"),
        ("Throwing Star", "Throwing Star reaches 5 ft, or 10/40 ft thrown"),
    ]:
        error = dnd.fail(
            "attack",
            {"attacker_id": hero, "target_id": goblin, "attack_name": attack_name},
            sub=PLAYER,
        )
        assert error == {
            "code": "invalid_request",
            "message": f"Goblin is 45 ft away from Ash; {reach}. Move closer first.",
            "retryable": False,
            "recovery": "fix the arguments and retry",
        }
    assert dnd.state() == before and dnd.read("campaign_get")["authority_revision"] == revision
    # A sling reaches 30/120 ft: at 45 ft the shot is at long range, with disadvantage.
    slung = dnd.write(
        "attack", {"attacker_id": hero, "target_id": goblin, "attack_name": "sling"}, sub=PLAYER
    )
    assert slung["range"] == {"distance_ft": 45, "kind": "ranged", "disadvantage": ["long range"]}
    assert slung["to_hit"]["mode"] == "disadvantage" and len(slung["to_hit"]["rolls"]) == 2
    dnd.write("combat_end_turn", sub=PLAYER)
    # Monsters follow the same rule: the goblin's scimitar is refused, its shortbow is not.
    error = dnd.fail("attack", {"attacker_id": goblin, "target_id": hero})
    assert error["message"] == (
        "Ash is 45 ft away from Goblin; Scimitar reaches 5 ft. Move closer first."
    )
    shot = dnd.write(
        "attack", {"attacker_id": goblin, "target_id": hero, "attack_name": "Shortbow"}
    )
    assert shot["range"] == {"distance_ft": 45, "kind": "ranged", "disadvantage": []}
    assert shot["to_hit"]["mode"] == "normal"


def test_reach_weapons_and_ranged_attacks_next_to_a_foe(dnd: Game) -> None:
    hero, goblin = _armed_party(dnd)
    # A ranged attack with a hostile creature within 5 ft has disadvantage.
    shot = dnd.write(
        "attack", {"attacker_id": goblin, "target_id": hero, "attack_name": "Shortbow"}
    )
    assert shot["range"] == {
        "distance_ft": 5,
        "kind": "ranged",
        "disadvantage": ["hostile within 5 ft"],
    }
    assert shot["to_hit"]["mode"] == "disadvantage"
    dnd.write("combat_move", {"character_id": goblin, "x": 7, "y": 1})
    dnd.write("combat_end_turn")
    error = dnd.fail("attack", {"attacker_id": hero, "target_id": goblin}, sub=PLAYER)
    assert error["message"] == (
        "Goblin is 10 ft away from Ash; Longsword reaches 5 ft. Move closer first."
    )
    glaive = dnd.write(
        "attack", {"attacker_id": hero, "target_id": goblin, "attack_name": "Glaive"}, sub=PLAYER
    )
    assert glaive["range"] == {"distance_ft": 10, "kind": "melee", "disadvantage": []}


def test_without_a_grid_attacks_ignore_distance(dnd: Game) -> None:
    hero, goblin, _rat = _party(dnd)
    struck = dnd.write("attack", {"attacker_id": hero, "target_id": goblin}, sub=PLAYER)
    assert "range" not in struck and struck["attack"] == "Longsword"


def test_refusals_name_creatures_not_ids(dnd: Game) -> None:
    hero, goblin, rat = _party(dnd)
    twin = dnd.write("character_create", {"name": "Goblin", "template": "fighter"})["character"][
        "id"
    ]
    dnd.write("damage_apply", {"target_id": rat, "amount": 50})
    dnd.write("damage_apply", {"target_id": twin, "amount": 50})
    cases = [
        ("attack", {"attacker_id": hero, "target_id": rat}, PLAYER, "Rat is already dead"),
        ("attack", {"attacker_id": hero, "target_id": twin}, PLAYER,
         f"Goblin ({twin}) is already dead"),
        ("attack", {"attacker_id": hero, "target_id": goblin, "attack_name": "bow"}, PLAYER,
         "Ash has no attack named 'bow'; attacks: Longsword, Unarmed Strike"),
        ("attack", {"attacker_id": hero, "target_id": hero}, PLAYER,
         "Ash cannot attack themselves"),
        ("attack", {"attacker_id": hero, "target_id": goblin}, OTHER,
         "the requester does not control Ash"),
        ("damage_apply", {"target_id": rat, "amount": 1}, GM,
         "Rat is dead and cannot take damage"),
        ("heal", {"target_id": rat, "amount": 1}, GM, "Rat is dead and cannot be healed"),
        ("condition_add", {"target_id": rat, "condition": "prone"}, GM, "Rat is dead"),
        ("condition_remove", {"target_id": goblin, "condition": "prone"}, GM,
         f"Goblin ({goblin}) is not prone"),
        ("death_save", {"character_id": hero}, PLAYER, "Ash is not dying"),
        ("combat_start", {"participant_ids": [hero, rat]}, GM,
         "Rat is dead and cannot join combat"),
    ]  # fmt: skip
    for tool, args, sub, message in cases:
        assert dnd.fail(tool, args, sub=sub)["message"] == message, (tool, args)
    dnd.write("combat_start", {"participant_ids": [hero, goblin]})
    dnd.write("condition_add", {"target_id": hero, "condition": "restrained"})
    error = dnd.fail("combat_move", {"character_id": hero, "x": 5, "y": 3}, sub=PLAYER)
    assert error["message"] == "Ash cannot move while restrained"
    dnd.write("condition_remove", {"target_id": hero, "condition": "restrained"})
    error = dnd.fail("combat_move", {"character_id": hero, "x": 6, "y": 0}, sub=PLAYER)
    assert error["message"] == f"square (6, 0) is occupied by Goblin ({goblin})"


def test_a_move_longer_than_what_is_left_names_the_feet_left(dnd: Game) -> None:
    hero, goblin = _armed_party(dnd)
    dnd.write("combat_end_turn")
    dnd.write("combat_move", {"character_id": hero, "x": 0, "y": 0}, sub=PLAYER)  # 25 of 30 ft
    error = dnd.fail("combat_move", {"character_id": hero, "x": 0, "y": 2}, sub=PLAYER)
    assert error["message"] == "Ash has only 5 ft of movement left this turn"
    dnd.write("combat_move", {"character_id": hero, "x": 0, "y": 1}, sub=PLAYER)
    error = dnd.fail("combat_move", {"character_id": hero, "x": 0, "y": 2}, sub=PLAYER)
    assert error["message"] == "Ash has no movement left this turn"


def test_the_grid_picture_labels_its_coordinates_and_tells_apart_goblin_2() -> None:
    from domain_servers.dnd5e.render import svg

    picture = svg(
        {"width": 3, "height": 2, "round": 1, "tokens": [
            {"id": "mon-1", "name": "Goblin", "kind": "monster", "x": 0, "y": 0,
             "current": True, "status": "unhurt"},
            {"id": "mon-2", "name": "Goblin 2", "kind": "monster", "x": 2, "y": 1,
             "current": False, "status": "unhurt"},
        ]}
    )  # fmt: skip
    labels = re.findall(r'fill="#6b6250">(\d+)</text>', picture)
    assert labels == ["0", "1", "2", "0", "1"]  # columns 0-2 on top, rows 0-1 on the left
    tokens = re.findall(r'fill="#fff">([^<]*)</text>', picture)
    assert tokens == ["Go", "G2"]
