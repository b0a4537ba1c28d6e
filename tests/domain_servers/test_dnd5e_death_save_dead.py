"""dnd5e: a death save for a character the rules refuse one (dead, not dying, stable) says
so, not whose turn it is: the dead get no turn to wait for."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def _fight(dnd: Game, monkeypatch) -> tuple[str, str]:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    briar = dnd.write("character_create", {"name": "Briar", "template": "rogue"}, sub=PLAYER)
    dnd.write("phase_set", {"phase": "play"})
    ash, briar = ash["character"]["id"], briar["character"]["id"]
    # Equal d20s: Briar's DEX 15 beats Ash's 13, so Briar's turn comes first.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, briar]})
    return ash, briar


def test_a_death_save_for_a_dead_character_says_it_is_dead(dnd: Game, monkeypatch) -> None:
    ash, _briar = _fight(dnd, monkeypatch)
    dnd.write("damage_apply", {"target_id": ash, "amount": 100})  # massive damage: dead
    revision = dnd.revision

    error = dnd.fail("death_save", {"character_id": ash}, sub=PLAYER)

    assert (error["code"], error["message"]) == ("invalid_request", "Ash is dead")
    assert dnd.domain.storage.load(dnd.campaign)[0] == revision


def test_a_death_save_for_a_character_not_dying_says_so(dnd: Game, monkeypatch) -> None:
    ash, _briar = _fight(dnd, monkeypatch)

    error = dnd.fail("death_save", {"character_id": ash}, sub=PLAYER)

    assert error["message"] == "Ash is not dying"


def test_a_dying_character_out_of_turn_is_told_whose_turn_it_is(dnd: Game, monkeypatch) -> None:
    ash, _briar = _fight(dnd, monkeypatch)
    hp = dnd.read("character_get", {"character_id": ash})["character"]["hp"]["current"]
    dnd.write("damage_apply", {"target_id": ash, "amount": hp})

    error = dnd.fail("death_save", {"character_id": ash}, sub=PLAYER)

    assert error["message"] == "it is Briar's turn, not Ash's"
