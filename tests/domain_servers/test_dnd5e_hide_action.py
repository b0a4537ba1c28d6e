"""dnd5e: the Hide action in combat (SRD 5.1) spends the action on a Dexterity (Stealth) check
against the best passive Wisdom (Perception) of the foes able to notice it. Hidden, a creature
attacks with advantage and is attacked with disadvantage, provokes no opportunity attacks, and
is revealed by its own attack."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def _rin_beside(
    dnd: Game, monkeypatch, monster: str = "goblin", template: str = "rogue"
) -> tuple[str, str]:
    # Hit points to spare: every die rolls 10 here.
    rin = dnd.write(
        "character_create", {"name": "Rin", "template": template, "max_hp": 40}, sub=PLAYER
    )
    rin = rin["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    foe = dnd.write("monster_spawn", {"monster_key": monster})["character"]["id"]
    # Every d20 a 10: Rin's DEX 15 beats the goblin's 14, so Rin goes first.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    started = dnd.write("combat_start", {"participant_ids": [rin, foe]})
    if started["combat"]["current"] != rin:
        dnd.write("combat_end_turn")
    return rin, foe


def _entry(dnd: Game, char_id: str) -> dict:
    order = dnd.read("combat_status")["combat"]["order"]
    return next(e for e in order if e["id"] == char_id)


def test_hiding_is_a_stealth_check_against_the_foes_passive_perception(
    dnd: Game, monkeypatch
) -> None:
    rin, _goblin = _rin_beside(dnd, monkeypatch)

    # The GM's answer: the monster's passive Perception is its to see.
    hid = dnd.write("combat_action", {"character_id": rin, "action": "hide"})

    # 10 + DEX 2 + Stealth with Expertise 4, against the goblin's passive Perception 9.
    assert (hid["check"]["skill"], hid["check"]["total"]) == ("stealth", 16)
    assert (hid["dc"], hid["hidden"]) == (9, True)
    entry = _entry(dnd, rin)
    assert (entry["budget"]["action"], entry["hidden"]) == (0, True)


def test_a_failed_hide_leaves_the_creature_seen(dnd: Game, monkeypatch) -> None:
    rin, _wolf = _rin_beside(dnd, monkeypatch, "wolf", template="fighter")

    # The GM's answer: the monster's passive Perception is its to see.
    hid = dnd.write("combat_action", {"character_id": rin, "action": "hide"})

    # A fighter's 10 + DEX 1, no Stealth proficiency, against the wolf's passive Perception 13.
    assert (hid["check"]["total"], hid["dc"], hid["hidden"]) == (11, 13, False)
    entry = _entry(dnd, rin)
    assert entry["budget"]["action"] == 0 and "hidden" not in entry


def test_hidden_the_rogue_strikes_with_advantage_and_is_revealed(dnd: Game, monkeypatch) -> None:
    rin, goblin = _rin_beside(dnd, monkeypatch)
    dnd.write("combat_action", {"character_id": rin, "action": "hide"}, sub=PLAYER)
    dnd.write("combat_end_turn", {"character_id": rin}, sub=PLAYER)

    swung = dnd.write("attack", {"attacker_id": goblin, "target_id": rin})
    assert swung["to_hit"]["disadvantage_reasons"] == ["Rin is hidden"]
    dnd.write("combat_end_turn")
    moved = dnd.write("combat_move", {"character_id": rin, "x": 3, "y": 0}, sub=PLAYER)
    assert "opportunity_attacks" not in moved
    dnd.write("combat_move", {"character_id": rin, "x": 5, "y": 0}, sub=PLAYER)
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 15)  # a hit
    struck = dnd.write("attack", {"attacker_id": rin, "target_id": goblin}, sub=PLAYER)

    assert struck["to_hit"]["advantage_reasons"] == ["Rin is hidden"]
    assert struck["sneak_attack"] == "1d6"
    assert "hidden" not in _entry(dnd, rin)


def test_with_nobody_to_hide_from_hiding_needs_no_check(dnd: Game, monkeypatch) -> None:
    rin, goblin = _rin_beside(dnd, monkeypatch)
    dnd.write("condition_add", {"target_id": goblin, "condition": "blinded"})

    hid = dnd.write("combat_action", {"character_id": rin, "action": "hide"}, sub=PLAYER)

    assert (hid["hidden"], hid["dc"], hid["check"]) == (True, None, None)


# The DC a player character hides against is a monster's passive Perception, part of its
# hidden stat block (as its AC is): the GM's to see. The player and the table see whether it
# hid and the check's total.


def test_the_gm_sees_the_monsters_passive_perception_a_player_hid_against(
    dnd: Game, monkeypatch
) -> None:
    rin, _goblin = _rin_beside(dnd, monkeypatch)

    hid = dnd.write("combat_action", {"character_id": rin, "action": "hide"})

    assert (hid["hidden"], hid["dc"], hid["check"]["dc"], hid["check"]["total"]) == (
        True,
        9,
        9,
        16,
    )


def test_the_player_sees_its_hide_and_its_total_not_the_monsters_passive_perception(
    dnd: Game, monkeypatch
) -> None:
    rin, _goblin = _rin_beside(dnd, monkeypatch)

    hid = dnd.write("combat_action", {"character_id": rin, "action": "hide"}, sub=PLAYER)

    assert (hid["hidden"], hid["check"]["total"], hid["check"]["success"]) == (True, 16, True)
    assert "dc" not in hid and "dc" not in hid["check"]


def test_the_public_sees_a_players_hide_and_total_not_the_monsters_passive_perception(
    dnd: Game, monkeypatch
) -> None:
    rin, _wolf = _rin_beside(dnd, monkeypatch, "wolf", template="fighter")

    hid = dnd.write(
        "combat_action", {"character_id": rin, "action": "hide"}, sub=PLAYER, view="public"
    )

    assert (hid["hidden"], hid["check"]["total"], hid["check"]["success"]) == (False, 11, False)
    assert "dc" not in hid and "dc" not in hid["check"]


def test_a_monsters_hide_shows_the_players_the_partys_own_passive_perception(
    dnd: Game, monkeypatch
) -> None:
    _rin, goblin = _rin_beside(dnd, monkeypatch)
    dnd.write("combat_end_turn")  # Rin's: the goblin is up

    hid = dnd.write("combat_action", {"character_id": goblin, "action": "hide"}, view="public")

    # Rin's passive Perception 14 (10 + WIS 0 + Perception with Expertise 4), the party's own
    # number; the goblin's check shows its total alone, as any of its checks does.
    assert (hid["hidden"], hid["dc"], hid["check"]["dc"], hid["check"]["total"]) == (
        True,
        14,
        14,
        16,
    )
    assert "natural" not in hid["check"]
