"""Standing up from prone (SRD 5.1) across rounds: it costs movement equal to half the
creature's speed (its speed, not what a Dash added), from the movement its own turn has left,
and is refused with less than half its speed left or at speed 0."""

from __future__ import annotations

from typing import Any

from tests.domain_servers.conftest import GM, PLAYER, Game


def _dwarf_and_goblin(dnd: Game) -> dict[str, str]:
    """Ash, the player's fighter with a dwarf's 25 ft speed, and a goblin, in combat."""
    ash = dnd.write(
        "character_create", {"name": "Ash", "template": "fighter", "speed": 25}, sub=PLAYER
    )
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    ids = {"ash": ash["character"]["id"], "goblin": goblin}
    dnd.write("combat_start", {"participant_ids": sorted(ids.values())})
    return ids


def _combat(dnd: Game) -> dict[str, Any]:
    return dnd.read("combat_status")["combat"]


def _turn_of(dnd: Game, char_id: str) -> None:
    for _ in range(3):
        if _combat(dnd)["current"] == char_id:
            return
        dnd.write("combat_end_turn")
    raise AssertionError(f"{char_id} never came up")


def _round_of_next_turn(dnd: Game, char_id: str) -> int:
    """End turns until `char_id`'s next one starts; the round it starts in."""
    dnd.write("combat_end_turn")
    _turn_of(dnd, char_id)
    return _combat(dnd)["round"]


def _movement(dnd: Game, char_id: str) -> int:
    return next(e for e in _combat(dnd)["order"] if e["id"] == char_id)["budget"]["movement"]


def test_knocked_prone_in_one_round_it_stands_in_the_next_for_half_its_speed(
    dnd: Game,
) -> None:
    ids = _dwarf_and_goblin(dnd)
    _turn_of(dnd, ids["goblin"])
    assert _combat(dnd)["round"] == 1
    dnd.write("condition_add", {"target_id": ids["ash"], "condition": "prone"}, sub=GM)
    # Ash's turn in round 2 (its round-1 turn, if it comes after the goblin's, passes by).
    while (_combat(dnd)["current"], _combat(dnd)["round"]) != (ids["ash"], 2):
        dnd.write("combat_end_turn")
    assert _movement(dnd, ids["ash"]) == 25

    stood = dnd.write("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)

    # Half of 25 ft is 12.5: it needs 13 whole feet, and 12 are left to walk.
    assert (stood["movement_cost"], stood["movement_left"], stood["conditions"]) == (13, 12, [])
    assert _movement(dnd, ids["ash"]) == 12


def test_standing_after_a_dash_costs_half_the_speed_not_half_the_dash(dnd: Game) -> None:
    ids = _dwarf_and_goblin(dnd)
    dnd.write("condition_add", {"target_id": ids["ash"], "condition": "prone"}, sub=GM)
    _turn_of(dnd, ids["ash"])
    dashed = dnd.write("combat_action", {"character_id": ids["ash"], "action": "dash"}, sub=PLAYER)
    assert dashed["movement_left"] == 50

    stood = dnd.write("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)

    assert (stood["movement_cost"], stood["movement_left"]) == (13, 37)


def test_less_than_half_its_speed_left_refuses_standing_and_changes_nothing(dnd: Game) -> None:
    ids = _dwarf_and_goblin(dnd)
    _turn_of(dnd, ids["ash"])
    x, y = next(e for e in _combat(dnd)["order"] if e["id"] == ids["ash"])["position"]
    # 15 ft west, away from the goblin: 10 ft left; then knocked down mid-turn.
    dnd.write("combat_move", {"character_id": ids["ash"], "x": x - 3, "y": y}, sub=PLAYER)
    dnd.write("condition_add", {"target_id": ids["ash"], "condition": "prone"}, sub=GM)
    before, revision = dnd.state(), dnd.revision

    error = dnd.fail("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)

    assert (error["code"], error["message"]) == (
        "invalid_request",
        "Ash needs 13 ft of movement to stand up and has 10 ft left this turn",
    )
    assert (dnd.state(), dnd.revision) == (before, revision)
    # Next round its turn starts with its whole speed: standing fits again.
    _round_of_next_turn(dnd, ids["ash"])
    stood = dnd.write("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)
    assert (stood["movement_cost"], stood["movement_left"]) == (13, 12)


def test_a_grappled_creature_at_speed_0_cannot_stand_and_nothing_changes(dnd: Game) -> None:
    ids = _dwarf_and_goblin(dnd)
    for condition in ("prone", "grappled"):
        dnd.write("condition_add", {"target_id": ids["ash"], "condition": condition}, sub=GM)
    _turn_of(dnd, ids["ash"])
    assert _movement(dnd, ids["ash"]) == 0  # a grappled creature's speed is 0
    before, revision = dnd.state(), dnd.revision

    error = dnd.fail("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)

    assert error["message"] == "Ash cannot stand up while grappled"
    assert (dnd.state(), dnd.revision) == (before, revision)
    # Freed on its turn, it has its whole movement for standing.
    dnd.write("condition_remove", {"target_id": ids["ash"], "condition": "grappled"}, sub=GM)
    stood = dnd.write("stand_up", {"character_id": ids["ash"]}, sub=PLAYER)
    assert (stood["movement_cost"], stood["movement_left"]) == (13, 12)
