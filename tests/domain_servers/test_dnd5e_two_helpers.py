"""dnd5e: two creatures may each take the Help action for the same ally (SRD 5.1). Advantage
does not stack, but each Help is its own: the ally's first attack roll against the foe a Help
names (or its next ability check) is the roll every such Help aids, so that roll uses them all,
and each Help lapses when its own helper's next turn starts."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game

BASE = dict.fromkeys(("str", "con", "int", "wis", "cha"), 10)


def _two_helpers_and_goblin(dnd: Game, monkeypatch) -> tuple[str, str, str, str]:
    """Bram, Cara, the goblin, then Ash: Bram and Cara beside the goblin."""
    bram = dnd.write(
        "character_create", {"name": "Bram", "abilities": BASE | {"dex": 18}}, sub=OTHER
    )["character"]["id"]
    cara = dnd.write(
        "character_create", {"name": "Cara", "abilities": BASE | {"dex": 16}}, sub=OTHER
    )["character"]["id"]
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    started = dnd.write("combat_start", {"participant_ids": [bram, cara, ash, goblin]})
    assert [e["id"] for e in started["combat"]["order"]] == [bram, cara, goblin, ash]
    return bram, cara, goblin, ash


def _help(dnd: Game, helper: str, ally: str, target: str | None = None) -> None:
    dnd.write(
        "combat_action",
        {"character_id": helper, "action": "help", "ally_id": ally}
        | ({"target_id": target} if target else {}),
        sub=OTHER,
    )
    dnd.write("combat_end_turn", {"character_id": helper}, sub=OTHER)


def _ash_beside_the_goblin(dnd: Game, ash: str) -> None:
    dnd.write("combat_move", {"character_id": ash, "x": 6, "y": 1}, sub=PLAYER)


def test_two_helps_against_one_foe_both_aid_the_allys_first_attack(dnd: Game, monkeypatch) -> None:
    bram, cara, goblin, ash = _two_helpers_and_goblin(dnd, monkeypatch)
    _help(dnd, bram, ash, goblin)
    _help(dnd, cara, ash, goblin)
    dnd.write("combat_end_turn", sub=GM)  # the goblin's
    _ash_beside_the_goblin(dnd, ash)

    first = dnd.write("attack", {"attacker_id": ash, "target_id": goblin}, sub=PLAYER)

    assert (first["to_hit"]["mode"], first["to_hit"]["advantage_reasons"]) == (
        "advantage",
        ["Bram helps Ash (the Help action)", "Cara helps Ash (the Help action)"],
    )
    # The first attack roll is the one each Help aids: both are spent on it.
    assert dnd.state()["combat"]["helped"] == {}


def test_a_second_help_for_a_check_keeps_the_first_for_an_attack(dnd: Game, monkeypatch) -> None:
    bram, cara, goblin, ash = _two_helpers_and_goblin(dnd, monkeypatch)
    _help(dnd, bram, ash, goblin)
    _help(dnd, cara, ash)
    dnd.write("combat_end_turn", sub=GM)  # the goblin's
    _ash_beside_the_goblin(dnd, ash)

    check = dnd.write(
        "ability_check", {"character_id": ash, "skill": "athletics", "dc": 10}, sub=PLAYER
    )
    attack = dnd.write("attack", {"attacker_id": ash, "target_id": goblin}, sub=PLAYER)

    assert check["advantage_reasons"] == ["Cara helps Ash (the Help action)"]
    assert attack["to_hit"]["advantage_reasons"] == ["Bram helps Ash (the Help action)"]


def test_each_help_lapses_when_its_own_helpers_next_turn_starts(dnd: Game, monkeypatch) -> None:
    bram, cara, goblin, ash = _two_helpers_and_goblin(dnd, monkeypatch)
    _help(dnd, bram, ash, goblin)
    _help(dnd, cara, ash)
    dnd.write("combat_end_turn", sub=GM)  # the goblin's
    dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)

    # Bram's turn has started: its Help lapsed; Cara's lasts until Cara's turn starts.
    assert dnd.state()["combat"]["helped"] == {ash: [{"helper": cara, "target": None}]}
    dnd.write("combat_end_turn", {"character_id": bram}, sub=OTHER)
    assert dnd.state()["combat"]["helped"] == {}
