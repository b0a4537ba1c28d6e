"""dnd5e: combat_start's order says how each combatant's initiative was rolled (its natural d20,
its DEX modifier, and whether two dice were rolled), as a check's result does, so the room can
show the roll and not a bare total. A monster's modifier is part of its hidden stat block: the
public view of the result leaves out its die and modifier, as it does for its checks."""

from __future__ import annotations

from typing import Any

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import OTHER, PLAYER, Game

# What each order entry says of the roll, beside the character card, budget and position.
CARD = ("character", "budget", "position")


def _rolls(started: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k not in CARD} for e in started["combat"]["order"]]


def _poisoned_ash_bryn_and_a_goblin(dnd: Game) -> list[str]:
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    bryn = dnd.write("character_create", {"name": "Bryn", "template": "rogue"}, sub=OTHER)
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    dnd.write("condition_add", {"target_id": ash["character"]["id"], "condition": "poisoned"})
    assert (ash["character"]["id"], bryn["character"]["id"], goblin) == ("pc-1", "pc-2", "mon-3")
    # The campaign's seeded stream, rolled in id order: the goblin's d20, Ash's two (poisoned:
    # disadvantage), Bryn's.
    stream = RandomStream("a" * 64, dnd.state()["random_stream"]["position"])
    assert [stream.randint(1, 20) for _ in range(4)] == [17, 15, 8, 19]
    return ["pc-1", "pc-2", "mon-3"]


def test_combat_start_says_each_combatants_natural_d20_dex_modifier_and_mode(dnd: Game) -> None:
    ids = _poisoned_ash_bryn_and_a_goblin(dnd)

    started = dnd.write("combat_start", {"participant_ids": ids})

    assert _rolls(started) == [
        # Bryn: 19 + DEX 15 (+2).
        {"id": "pc-2", "initiative": 21, "natural": 19, "modifier": 2, "mode": "normal"},
        # The goblin: 17 + DEX 14 (+2); the GM who started the fight sees its roll.
        {"id": "mon-3", "initiative": 19, "natural": 17, "modifier": 2, "mode": "normal"},
        # Ash keeps the lower of 15 and 8: 8 + DEX 13 (+1).
        {"id": "pc-1", "initiative": 9, "natural": 8, "modifier": 1, "mode": "disadvantage"},
    ]
    assert started["random_stream_receipt"]["draw_count"] == 4


def test_the_public_view_of_combat_start_hides_a_monsters_die_and_modifier(dnd: Game) -> None:
    """With the total, a monster's natural die would give away its DEX modifier: the public
    sees its total, as the turn order ranks it, and whether two dice were rolled (its
    conditions, which say why, are public). The characters' rolls are the table's."""
    ids = _poisoned_ash_bryn_and_a_goblin(dnd)

    started = dnd.write("combat_start", {"participant_ids": ids}, view="public")

    assert _rolls(started) == [
        {"id": "pc-2", "initiative": 21, "natural": 19, "modifier": 2, "mode": "normal"},
        {"id": "mon-3", "initiative": 19, "mode": "normal"},
        {"id": "pc-1", "initiative": 9, "natural": 8, "modifier": 1, "mode": "disadvantage"},
    ]
