"""dnd5e: a wolf's Pack Tactics, advantage when an able ally of it is within 5 ft of the
target (SRD 5.1 wolf)."""

from __future__ import annotations

from tests.domain_servers.conftest import GM, PLAYER, Game


def _turn_of(dnd: Game, char_id: str, hero: str) -> None:
    """End turns until `char_id`'s turn is current (a new one when it already is)."""
    current = dnd.read("combat_status")["combat"]["current"]
    while True:
        dnd.write("combat_end_turn", sub=PLAYER if current == hero else GM)
        current = dnd.read("combat_status")["combat"]["current"]
        if current == char_id:
            return


def _pack(dnd: Game, second: str = "wolf") -> tuple[str, str, str]:
    """Ash at (5, 0); a wolf and a `second` monster at (6, 0) and (6, 1), both next to Ash.
    Returns (hero, wolf, other) with the wolf's turn current."""
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)[
        "character"
    ]["id"]
    dnd.write("phase_set", {"phase": "play"})
    wolf = dnd.write("monster_spawn", {"monster_key": "wolf"})["character"]["id"]
    other = dnd.write("monster_spawn", {"monster_key": second, "name": "Other"})["character"]["id"]
    combat = dnd.write("combat_start", {"participant_ids": [hero, wolf, other]})["combat"]
    ids = [e["id"] for e in combat["order"]]
    if combat["current"] != wolf:
        _turn_of(dnd, wolf, hero)
    positions = {e["id"]: e["position"] for e in dnd.read("combat_status")["combat"]["order"]}
    assert positions[hero] == [5, 0] and sorted([positions[wolf], positions[other]]) == [
        [6, 0],
        [6, 1],
    ], ids
    return hero, wolf, other


def _bite(dnd: Game, wolf: str, hero: str) -> dict:
    return dnd.write("attack", {"attacker_id": wolf, "target_id": hero})["to_hit"]


def test_a_wolf_bites_with_advantage_when_its_packmate_is_next_to_the_target(dnd: Game) -> None:
    hero, wolf, other = _pack(dnd)
    to_hit = _bite(dnd, wolf, hero)
    assert to_hit["advantage_reasons"] == ["Pack Tactics: Other is within 5 ft of Ash"]
    assert (to_hit["mode"], len(to_hit["rolls"])) == ("advantage", 2)


def test_an_incapacitated_packmate_gives_no_pack_tactics(dnd: Game) -> None:
    hero, wolf, other = _pack(dnd)
    dnd.write("condition_add", {"target_id": other, "condition": "incapacitated"})
    to_hit = _bite(dnd, wolf, hero)
    assert (to_hit["advantage_reasons"], to_hit["mode"]) == ([], "normal")


def test_a_packmate_away_from_the_target_gives_no_pack_tactics(dnd: Game) -> None:
    hero, wolf, other = _pack(dnd)
    _turn_of(dnd, other, hero)
    dnd.write("combat_move", {"character_id": other, "x": 11, "y": 5})
    _turn_of(dnd, wolf, hero)
    to_hit = _bite(dnd, wolf, hero)
    assert (to_hit["advantage_reasons"], to_hit["mode"]) == ([], "normal")


def test_a_goblin_has_no_pack_tactics(dnd: Game) -> None:
    hero, wolf, goblin = _pack(dnd, second="goblin")
    _turn_of(dnd, goblin, hero)
    to_hit = dnd.write("attack", {"attacker_id": goblin, "target_id": hero})["to_hit"]
    assert (to_hit["advantage_reasons"], to_hit["mode"]) == ([], "normal")
