"""Death saves are made at the start of the dying creature's turn: in combat once per its turn;
outside combat only when the GM calls for one, so a player cannot roll until a 20."""

from __future__ import annotations

import pytest

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import OTHER, PLAYER, Game

OUTSIDE = (
    "Ash is not in combat: a death save is made at the start of the dying creature's turn in "
    "combat; outside combat only the GM calls for one"
)


@pytest.fixture
def success(monkeypatch) -> None:
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 12)


def _dying(dnd: Game) -> dict[str, str]:
    """Ash (the player's) at 0 HP and dying, Bram (the other player's) and a goblin, in play."""
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    bram = dnd.write("character_create", {"name": "Bram", "template": "cleric"}, sub=OTHER)
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    ids = {"ash": ash["character"]["id"], "bram": bram["character"]["id"], "goblin": goblin}
    hp = dnd.read("character_get", {"character_id": ids["ash"]})["character"]["hp"]
    dnd.write("damage_apply", {"target_id": ids["ash"], "amount": hp["current"]})
    return ids


def _turn_of(dnd: Game, char_id: str) -> None:
    for _ in range(4):
        if dnd.read("combat_status")["combat"]["current"] == char_id:
            return
        dnd.write("combat_end_turn")
    raise AssertionError(f"{char_id} never came up")


def test_a_player_cannot_roll_death_saves_outside_combat(dnd: Game, success) -> None:
    ids = _dying(dnd)
    before, revision = dnd.state(), dnd.revision
    for _ in range(2):  # every time, not only after a first
        error = dnd.fail("death_save", {"character_id": ids["ash"]}, sub=PLAYER)
        assert error == {
            "code": "invalid_request",
            "message": OUTSIDE,
            "retryable": False,
            "recovery": "ask the GM to call for a death save",
        }
    # Nothing rolled, nothing counted.
    assert dnd.state() == before and dnd.revision == revision


def test_the_gm_calls_for_death_saves_outside_combat(dnd: Game, success) -> None:
    ids = _dying(dnd)
    first = dnd.write("death_save", {"character_id": ids["ash"]})
    second = dnd.write("death_save", {"character_id": ids["ash"]})
    assert (first["outcome"], second["outcome"]) == ("success", "success")
    assert second["death_saves"] == {"successes": 2, "failures": 0}
    assert first["receipt"]["changed_scopes"] == [f"character:{ids['ash']}"]


def test_outside_combat_a_player_is_first_told_what_the_rules_say(dnd: Game) -> None:
    ids = _dying(dnd)
    # Bram is up, not dying: that comes before who may call for the save.
    error = dnd.fail("death_save", {"character_id": ids["bram"]}, sub=OTHER)
    assert (error["code"], error["message"]) == ("invalid_request", "Bram is not dying")
    # Someone else's character is refused as ever.
    error = dnd.fail("death_save", {"character_id": ids["ash"]}, sub=OTHER)
    assert (error["code"], error["message"]) == (
        "authorization_denied", "the requester does not control Ash",
    )  # fmt: skip


def test_in_combat_a_player_saves_once_on_their_own_turn(dnd: Game, success) -> None:
    ids = _dying(dnd)
    dnd.write("combat_start", {"participant_ids": sorted(ids.values())})
    _turn_of(dnd, ids["goblin"])
    error = dnd.fail("death_save", {"character_id": ids["ash"]}, sub=PLAYER)
    assert error["message"] == "it is Goblin's turn, not Ash's"
    _turn_of(dnd, ids["ash"])
    saved = dnd.write("death_save", {"character_id": ids["ash"]}, sub=PLAYER)
    assert saved["death_saves"] == {"successes": 1, "failures": 0}
    # Once per turn, for the GM as well as the player.
    for sub in (PLAYER, "user:gm"):
        error = dnd.fail("death_save", {"character_id": ids["ash"]}, sub=sub)
        assert error["message"] == "Ash has already made a death save this turn"
    # The next turn of Ash's, another.
    dnd.write("combat_end_turn")
    _turn_of(dnd, ids["ash"])
    again = dnd.write("death_save", {"character_id": ids["ash"]}, sub=PLAYER)
    assert again["death_saves"] == {"successes": 2, "failures": 0}


def test_a_dying_character_left_out_of_a_running_combat_is_outside_it(dnd: Game, success) -> None:
    ids = _dying(dnd)
    dnd.write("combat_start", {"participant_ids": [ids["bram"], ids["goblin"]]})
    error = dnd.fail("death_save", {"character_id": ids["ash"]}, sub=PLAYER)
    assert (error["code"], error["message"]) == ("invalid_request", OUTSIDE)
    assert dnd.write("death_save", {"character_id": ids["ash"]})["outcome"] == "success"


def test_after_combat_ends_the_player_saves_no_more(dnd: Game, success) -> None:
    ids = _dying(dnd)
    dnd.write("combat_start", {"participant_ids": sorted(ids.values())})
    _turn_of(dnd, ids["ash"])
    dnd.write("death_save", {"character_id": ids["ash"]}, sub=PLAYER)
    dnd.write("combat_end")
    error = dnd.fail("death_save", {"character_id": ids["ash"]}, sub=PLAYER)
    assert (error["code"], error["message"]) == ("invalid_request", OUTSIDE)
