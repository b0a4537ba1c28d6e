"""Every creature on the table has a name of its own, given or not."""

from __future__ import annotations

from tests.domain_servers.conftest import PLAYER, Game


def _names(dnd: Game) -> list[str]:
    return [c["name"] for c in dnd.state()["characters"].values()]


def test_a_second_monster_spawned_with_a_taken_name_is_numbered_like_an_unnamed_one(
    dnd: Game,
) -> None:
    """Two wolves both named "Fang" could not be told apart in a message, a panel or an
    "attack Fang"; an unnamed second wolf was already "Wolf 2"."""
    dnd.write("phase_set", {"phase": "play"})
    first = dnd.write("monster_spawn", {"monster_key": "wolf", "name": "Fang"})
    second = dnd.write("monster_spawn", {"monster_key": "wolf", "name": " Fang "})
    third = dnd.write("monster_spawn", {"monster_key": "goblin", "name": "Fang"})

    assert [m["character"]["name"] for m in (first, second, third)] == [
        "Fang",
        "Fang 2",
        "Fang 3",
    ]


def test_a_monster_given_a_name_taken_in_another_case_is_numbered(dnd: Game) -> None:
    """A player types "attack fang": "Fang" and "fang" would be the same creature to them."""
    dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    dnd.write("phase_set", {"phase": "play"})
    dnd.write("monster_spawn", {"monster_key": "wolf", "name": "Fang"})

    dnd.write("monster_spawn", {"monster_key": "wolf", "name": "fang"})
    dnd.write("monster_spawn", {"monster_key": "goblin", "name": "ASH"})

    assert sorted(_names(dnd)) == ["ASH 2", "Ash", "Fang", "fang 2"]


def test_a_dead_monsters_name_may_be_given_again(dnd: Game) -> None:
    """A new fight's goblin may be "Goblin" again once the first one fell: only the living
    and the characters need telling apart (the web host's table names its spawns so)."""
    dnd.write("phase_set", {"phase": "play"})
    fallen = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    dnd.write("damage_apply", {"target_id": fallen, "amount": 50})

    again = dnd.write("monster_spawn", {"monster_key": "goblin", "name": "Goblin"})
    unnamed = dnd.write("monster_spawn", {"monster_key": "goblin"})

    assert again["character"]["name"] == "Goblin"
    # Unnamed spawns still count every creature kept, the dead too.
    assert unnamed["character"]["name"] == "Goblin 2"
