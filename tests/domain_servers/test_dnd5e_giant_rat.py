"""dnd5e: the SRD 5.1 giant rat's Pack Tactics."""

from __future__ import annotations

from tests.domain_servers.conftest import GM, PLAYER, Game


def test_a_giant_rat_bites_with_advantage_when_a_goblin_stands_by_its_target(dnd: Game) -> None:
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)[
        "character"
    ]["id"]
    dnd.write("phase_set", {"phase": "play"})
    rat = dnd.write("monster_spawn", {"monster_key": "giant_rat", "name": "Rat"})["character"]["id"]
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    dnd.write("combat_start", {"participant_ids": [hero, rat, goblin]})
    while dnd.read("combat_status")["combat"]["current"] != rat:
        current = dnd.read("combat_status")["combat"]["current"]
        dnd.write("combat_end_turn", sub=PLAYER if current == hero else GM)
    # Ash at (5, 0); the rat and the goblin at (6, 0) and (6, 1), both next to Ash.
    to_hit = dnd.write("attack", {"attacker_id": rat, "target_id": hero})["to_hit"]
    assert to_hit["advantage_reasons"] == ["Pack Tactics: Goblin is within 5 ft of Ash"]
    assert (to_hit["mode"], len(to_hit["rolls"])) == ("advantage", 2)
