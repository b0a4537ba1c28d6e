"""dnd5e: a dying character's turn starts with its death save, so its turn cannot be ended
without one; a stable character, or one that dropped during its own turn, ends it freely."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import GM, PLAYER, Game


def _ash_dying_on_his_turn(dnd: Game, monkeypatch) -> tuple[str, str]:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    # Equal d20s (and successful death saves): the goblin's DEX 14 beats Ash's 13.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, goblin]})
    hp = dnd.read("character_get", {"character_id": ash})["character"]["hp"]["current"]
    dnd.write("damage_apply", {"target_id": ash, "amount": hp})  # to 0 HP, dying
    dnd.write("combat_end_turn")  # the goblin's: Ash is up
    return ash, goblin


def test_a_dying_character_cannot_end_its_turn_before_its_death_save(
    dnd: Game, monkeypatch
) -> None:
    ash, _goblin = _ash_dying_on_his_turn(dnd, monkeypatch)
    revision = dnd.revision

    for sub in (PLAYER, GM):
        error = dnd.fail("combat_end_turn", {"character_id": ash}, sub=sub)
        assert (error["code"], error["message"]) == (
            "invalid_request",
            "Ash is dying: make the death save first.",
        )
    status = dnd.read("combat_status")["combat"]
    assert (status["current"], status["round"], dnd.revision) == (ash, 1, revision)
    assert dnd.domain.storage.load(dnd.campaign)[0] == revision


def test_a_dying_character_ends_its_turn_after_its_death_save(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_dying_on_his_turn(dnd, monkeypatch)
    assert dnd.write("death_save", {"character_id": ash}, sub=PLAYER)["outcome"] == "success"

    ended = dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)

    assert (ended["ended"], ended["current"], ended["round"]) == (ash, goblin, 2)


def test_a_stable_character_ends_its_turn_without_a_death_save(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_dying_on_his_turn(dnd, monkeypatch)
    for _ in range(3):  # three successes: stable
        outcome = dnd.write("death_save", {"character_id": ash}, sub=PLAYER)["outcome"]
        dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)
        dnd.write("combat_end_turn", {"character_id": goblin})
    assert outcome == "stable"

    ended = dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)

    assert (ended["ended"], ended["current"], ended["round"]) == (ash, goblin, 5)


def _ash_dropped_on_his_turn(dnd: Game, monkeypatch) -> tuple[str, str]:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, goblin]})
    dnd.write("combat_end_turn")  # the goblin's: Ash is up, unhurt
    hp = dnd.read("character_get", {"character_id": ash})["character"]["hp"]["current"]
    dnd.write("damage_apply", {"target_id": ash, "amount": hp})  # a trap on his turn
    return ash, goblin


def test_a_character_dropped_on_its_own_turn_ends_it_without_a_death_save(
    dnd: Game, monkeypatch
) -> None:
    # Its first death save comes at the start of its next turn.
    ash, goblin = _ash_dropped_on_his_turn(dnd, monkeypatch)

    ended = dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)

    assert (ended["ended"], ended["current"], ended["round"]) == (ash, goblin, 2)


def test_a_character_dropped_on_its_own_turn_makes_its_first_death_save_on_its_next(
    dnd: Game, monkeypatch
) -> None:
    ash, goblin = _ash_dropped_on_his_turn(dnd, monkeypatch)
    revision = dnd.revision

    error = dnd.fail("death_save", {"character_id": ash}, sub=PLAYER)

    assert (error["code"], error["message"], dnd.revision) == (
        "invalid_request",
        "Ash dropped this turn: the first death save comes at the start of the next",
        revision,
    )
    dnd.write("combat_end_turn", {"character_id": ash}, sub=PLAYER)
    dnd.write("combat_end_turn", {"character_id": goblin})
    saved = dnd.write("death_save", {"character_id": ash}, sub=PLAYER)
    assert (saved["outcome"], saved["death_saves"]) == ("success", {"successes": 1, "failures": 0})
