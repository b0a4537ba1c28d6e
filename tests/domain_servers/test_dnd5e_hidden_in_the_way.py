"""dnd5e: a hidden monster on a player character's way. The mover does not know the square is
taken, so the way is planned as if it were empty (no refusal names it, no detour is priced
around it); walking it, the mover stumbles on the monster at the first square of the way it
holds: the move stops on the square before, only the squares walked are paid for, and the
monster is found (hidden no more), as an attack gives it away. The GM's monsters know where
their own side and the party stand: their moves are as before."""

from __future__ import annotations

from typing import Any

from domain_servers.common.random_stream import RandomStream
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game
from tests.domain_servers.test_dnd5e_hidden_whereabouts import _fight as hidden_whereabouts_fight
from tests.domain_servers.test_dnd5e_hidden_whereabouts import _refused as refused


def _fight(dnd: Game, monkeypatch) -> dict[str, str]:
    """Rin (the player's rogue) at (5, 0), a goblin at (6, 0) and Bram (the other player's
    fighter) at (5, 1), every d20 a 10: Rin goes first, then the goblin, then Bram."""
    ids = hidden_whereabouts_fight(dnd, monkeypatch)
    positions = {e["id"]: e["position"] for e in dnd.read("combat_status")["combat"]["order"]}
    assert positions == {ids["rin"]: [5, 0], ids["goblin"]: [6, 0], ids["bram"]: [5, 1]}
    return ids


def _goblin_hides_at(dnd: Game, ids: dict[str, str], square: list[int] | None) -> None:
    """On its turn the goblin hides (Nimble Escape, 10 + 6 against Rin's passive Perception
    13) and, unseen, moves to `square`; then round 2 comes round to Rin."""
    dnd.write("combat_end_turn", {"character_id": ids["rin"]}, sub=PLAYER)
    hid = dnd.write(
        "combat_action", {"character_id": ids["goblin"], "action": "hide", "bonus_action": True}
    )
    assert hid["hidden"] is True
    if square is not None:
        dnd.write("combat_move", {"character_id": ids["goblin"], "x": square[0], "y": square[1]})
    dnd.write("combat_end_turn", {"character_id": ids["goblin"]})
    dnd.write("combat_end_turn", {"character_id": ids["bram"]}, sub=OTHER)


def _entry(dnd: Game, sub: str, char_id: str) -> dict[str, Any]:
    order = dnd.read("combat_status", sub=sub)["combat"]["order"]
    return next(e for e in order if e["id"] == char_id)


def _refused(dnd: Game, args: dict[str, Any], sub: str) -> str:
    return refused(dnd, "combat_move", args, sub)


def test_a_walk_through_a_hidden_goblins_square_stops_on_the_square_before_and_finds_it(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    _goblin_hides_at(dnd, ids, [8, 0])

    moved = dnd.write("combat_move", {"character_id": ids["rin"], "x": 10, "y": 0}, sub=PLAYER)
    moved.pop("receipt")
    # (5, 0) (6, 0) (7, 0), and the next square of the straight way holds the goblin.
    assert moved == {
        "character_id": ids["rin"],
        "from": [5, 0],
        "to": [7, 0],
        "feet": 10,
        "crawled": False,
        "movement_cost": 10,
        "movement_left": 20,
        "stopped_by": {"id": ids["goblin"], "name": "Goblin", "at": [8, 0]},
    }
    # Found: where it stands is everyone's now.
    for sub in (PLAYER, OTHER, GM):
        entry = _entry(dnd, sub, ids["goblin"])
        assert (entry["position"], "hidden" in entry) == ([8, 0], False), sub
    assert _entry(dnd, PLAYER, ids["rin"])["position"] == [7, 0]
    assert dnd.state()["combat"]["hidden"] == []


def test_a_crawl_into_a_hidden_goblin_pays_only_for_the_squares_crawled(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    _goblin_hides_at(dnd, ids, [8, 0])
    dnd.write("condition_add", {"target_id": ids["rin"], "condition": "prone"})

    # The way planned is 15 ft (30 crawling); 10 ft of it are crawled.
    moved = dnd.write("combat_move", {"character_id": ids["rin"], "x": 8, "y": 0}, sub=PLAYER)
    assert (moved["to"], moved["feet"], moved["crawled"]) == ([7, 0], 10, True)
    assert (moved["movement_cost"], moved["movement_left"]) == (20, 10)
    assert moved["stopped_by"] == {"id": ids["goblin"], "name": "Goblin", "at": [8, 0]}


def test_a_first_step_into_a_hidden_goblin_spends_nothing_and_finds_it(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    _goblin_hides_at(dnd, ids, None)  # it stays at (6, 0), beside Rin

    moved = dnd.write("combat_move", {"character_id": ids["rin"], "x": 6, "y": 0}, sub=PLAYER)
    moved.pop("receipt")
    assert moved == {
        "character_id": ids["rin"],
        "from": [5, 0],
        "to": [5, 0],
        "feet": 0,
        "crawled": False,
        "movement_cost": 0,
        "movement_left": 30,
        "stopped_by": {"id": ids["goblin"], "name": "Goblin", "at": [6, 0]},
    }
    entry = _entry(dnd, PLAYER, ids["goblin"])
    assert (entry["position"], "hidden" in entry) == ([6, 0], False)
    # Seen now, its square is refused as any creature's is.
    assert _refused(dnd, {"character_id": ids["rin"], "x": 6, "y": 0}, PLAYER) == (
        "square (6, 0) is occupied by Goblin"
    )


def test_a_move_stumbling_on_a_hidden_goblin_answers_the_same_when_replayed(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    _goblin_hides_at(dnd, ids, [8, 0])
    move = {"character_id": ids["rin"], "x": 10, "y": 0, "expected_revision": dnd.revision}

    first = dnd.call("combat_move", {**move, "idempotency_key": "walk"}, sub=PLAYER)
    assert not first.is_error, first.structured_content
    assert first.structured_content["stopped_by"]["at"] == [8, 0]
    again = dnd.call("combat_move", {**move, "idempotency_key": "walk"}, sub=PLAYER)
    public = dnd.call("combat_move", {**move, "idempotency_key": "walk"}, PLAYER, view="public")
    assert again.meta["idempotent_replay"] is True
    assert again.structured_content == first.structured_content
    assert public.structured_content == first.structured_content


def _walled_in(dnd: Game, monkeypatch, lurks_at: list[int] | None = None) -> tuple[str, str, str]:
    """Ash (the player's fighter) at (5, 0), goblins at (6, 0) and (6, 1); the one at (6, 1)
    hides (10 + 6 against Ash's passive Perception 13) and round 2 comes round to Ash."""
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)[
        "character"
    ]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblins = [
        dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"] for _ in range(2)
    ]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [hero, *goblins]})
    positions = dnd.state()["combat"]["positions"]
    seen = next(g for g in goblins if positions[g] == [6, 0])
    lurker = next(g for g in goblins if positions[g] == [6, 1])
    while dnd.read("combat_status")["combat"]["current"] != lurker:
        dnd.write("combat_end_turn", sub=GM)
    hid = dnd.write(
        "combat_action", {"character_id": lurker, "action": "hide", "bonus_action": True}
    )
    assert hid["hidden"] is True
    if lurks_at is not None:
        dnd.write("combat_move", {"character_id": lurker, "x": lurks_at[0], "y": lurks_at[1]})
    while dnd.read("combat_status")["combat"]["current"] != hero:
        dnd.write("combat_end_turn", sub=GM)
    return hero, seen, lurker


def test_a_way_through_a_hidden_goblin_is_walked_not_detoured_around(
    dnd: Game, monkeypatch
) -> None:
    hero, seen, lurker = _walled_in(dnd, monkeypatch)

    # (5, 0) (6, 1) (7, 0) as Ash plans it; (6, 1) holds the hidden goblin, so Ash stays put.
    moved = dnd.write("combat_move", {"character_id": hero, "x": 7, "y": 0}, sub=PLAYER)
    assert (moved["to"], moved["feet"], moved["movement_left"]) == ([5, 0], 0, 30)
    assert moved["stopped_by"] == {"id": lurker, "name": "Goblin 2", "at": [6, 1]}
    # Now that both goblins are known to be there, the way around them is priced.
    moved = dnd.write("combat_move", {"character_id": hero, "x": 7, "y": 0}, sub=PLAYER)
    assert (moved["to"], moved["feet"], "stopped_by" in moved) == ([7, 0], 20, False)


def test_the_gms_monster_moves_around_a_hidden_player_character_as_before(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    # 10 + DEX 2 + Stealth with Expertise 4 against the goblin's passive Perception 9.
    assert dnd.write("combat_action", {"character_id": ids["rin"], "action": "hide"}, sub=PLAYER)[
        "hidden"
    ]
    dnd.write("combat_end_turn", {"character_id": ids["rin"]}, sub=PLAYER)

    assert _refused(dnd, {"character_id": ids["goblin"], "x": 5, "y": 0}, GM) == (
        "square (5, 0) is occupied by Rin"
    )
    # Rin (5, 0) and Bram (5, 1) both stand in its way: around them below, 20 ft.
    moved = dnd.write("combat_move", {"character_id": ids["goblin"], "x": 4, "y": 0})
    assert (moved["to"], moved["feet"], "stopped_by" in moved) == ([4, 0], 20, False)
    assert dnd.state()["combat"]["hidden"] == [ids["rin"]]


def test_a_hidden_ally_in_the_way_is_as_before(dnd: Game, monkeypatch) -> None:
    ids = _fight(dnd, monkeypatch)
    assert dnd.write("combat_action", {"character_id": ids["rin"], "action": "hide"}, sub=PLAYER)[
        "hidden"
    ]
    dnd.write("combat_end_turn", {"character_id": ids["rin"]}, sub=PLAYER)
    dnd.write("combat_end_turn", {"character_id": ids["goblin"]})

    assert _refused(dnd, {"character_id": ids["bram"], "x": 5, "y": 0}, OTHER) == (
        "square (5, 0) is occupied by Rin"
    )
    assert dnd.state()["combat"]["hidden"] == [ids["rin"]]


def test_a_seen_goblins_square_is_still_refused(dnd: Game, monkeypatch) -> None:
    ids = _fight(dnd, monkeypatch)

    assert _refused(dnd, {"character_id": ids["rin"], "x": 6, "y": 0}, PLAYER) == (
        "square (6, 0) is occupied by Goblin"
    )


def test_a_walk_cut_short_by_a_hidden_goblin_provokes_along_the_squares_walked(
    dnd: Game, monkeypatch
) -> None:
    hero, seen, lurker = _walled_in(dnd, monkeypatch, lurks_at=[5, 3])

    # (5, 0) (4, 1) (4, 2) (5, 3) as Ash plans it: the seen goblin at (6, 0) has its chance as
    # Ash leaves its reach at (5, 0), and the hidden one stops Ash on (4, 2).
    moved = dnd.write("combat_move", {"character_id": hero, "x": 5, "y": 3}, sub=PLAYER)
    moved.pop("receipt")
    assert moved == {
        "character_id": hero,
        "from": [5, 0],
        "to": [4, 2],
        "feet": 10,
        "crawled": False,
        "movement_cost": 10,
        "movement_left": 20,
        "stopped_by": {"id": lurker, "name": "Goblin 2", "at": [5, 3]},
        "opportunity_attacks": [{"attacker_id": seen, "attacker_name": "Goblin"}],
    }
    assert dnd.read("combat_status")["combat"]["opportunity"] == [
        {
            "attacker_id": seen,
            "attacker_name": "Goblin",
            "target_id": hero,
            "target_name": "Ash",
            "at": [5, 0],
        }
    ]


def test_a_walk_that_stumbles_stops_on_the_last_square_it_may_end_in() -> None:
    way = [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]]

    def stop(unseen: set, difficult: set = frozenset()) -> int | None:
        return rules.stopped_before(way, unseen=unseen, difficult=set(difficult))

    assert stop(set()) is None
    assert stop({(3, 0)}) == 2
    assert stop({(1, 0)}) == 0  # the first step: it does not move
    # The first unseen square stops it, whatever lies beyond.
    assert stop({(2, 0), (4, 0)}) == 1
    # An ally's square on the way (2, 0) is no place to stop: back on (1, 0), or where it
    # started when every square walked was another creature's.
    assert stop({(3, 0)}, {(2, 0)}) == 1
    assert stop({(3, 0)}, {(1, 0), (2, 0)}) == 0
