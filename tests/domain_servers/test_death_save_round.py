"""dnd5e: a death save that kills passes the turn, and says the round it passed into (the
last in the order wraps to a new round), as "end turn" does."""

from __future__ import annotations

import asyncio

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import PLAYER, Game


def test_a_death_save_that_passes_the_turn_says_the_new_round(dnd: Game, monkeypatch) -> None:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    # Equal d20s: the goblin's DEX 14 beats Ash's 13, so Ash is last in the order.
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    started = dnd.write("combat_start", {"participant_ids": [ash, goblin]})["combat"]
    assert [e["id"] for e in started["order"]] == [goblin, ash]
    hp = dnd.read("character_get", {"character_id": ash})["character"]["hp"]["current"]
    dnd.write("damage_apply", {"target_id": ash, "amount": hp})  # to 0 HP, dying
    for _ in range(2):  # each hit at 0 HP is a death-save failure
        dnd.write("damage_apply", {"target_id": ash, "amount": 1})
    dnd.write("combat_end_turn")  # the goblin's: Ash is up, round 1
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 5)  # a failed save
    result = dnd.write("death_save", {"character_id": ash}, sub=PLAYER)
    status = dnd.read("combat_status")["combat"]
    assert (result["outcome"], result["current"], result["round"]) == ("dead", goblin, 2)
    assert (status["current"], status["round"]) == (goblin, 2)


def test_a_death_save_that_keeps_the_turn_says_no_round(dnd: Game, monkeypatch) -> None:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, goblin]})
    hp = dnd.read("character_get", {"character_id": ash})["character"]["hp"]["current"]
    dnd.write("damage_apply", {"target_id": ash, "amount": hp})
    dnd.write("combat_end_turn")
    result = dnd.write("death_save", {"character_id": ash}, sub=PLAYER)
    assert result["outcome"] == "success"
    assert ("current" in result, "round" in result) == (False, False)


def test_the_death_save_output_schema_names_the_turn_it_passes_to(dnd: Game) -> None:
    tools = {t.name: t for t in asyncio.run(dnd.domain._on_list_tools(None, None)).tools}

    properties = tools["death_save"].output_schema["properties"]
    assert (properties["current"]["type"], properties["round"]["type"]) == ("string", "integer")
