"""dnd5e: a move on the combat grid follows a path within the mover's speed; hostile creatures'
squares cannot be crossed, an ally's square can (as difficult terrain) but is no place to stop."""

from __future__ import annotations

import base64

from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import GM, PLAYER, Game


def _walled_in(dnd: Game, goblins: int) -> tuple[str, list[str]]:
    """Ash at (5, 0) and `goblins` goblins standing in column 6 from row 0 down; Ash's turn."""
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)[
        "character"
    ]["id"]
    dnd.write("phase_set", {"phase": "play"})
    ids = [
        dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
        for _ in range(goblins)
    ]
    combat = dnd.write("combat_start", {"participant_ids": [hero, *ids]})["combat"]
    positions = {e["id"]: e["position"] for e in combat["order"]}
    assert positions[hero] == [5, 0]
    assert sorted(positions[g] for g in ids) == [[6, row] for row in range(goblins)]
    while dnd.read("combat_status")["combat"]["current"] != hero:
        dnd.write("combat_end_turn", sub=GM)
    return hero, ids


def test_a_move_goes_around_a_line_of_foes_and_pays_for_the_detour(dnd: Game) -> None:
    hero, _ = _walled_in(dnd, goblins=3)
    moved = dnd.write("combat_move", {"character_id": hero, "x": 7, "y": 0}, sub=PLAYER)
    # (5,0) (5,1) (5,2) (6,3) (7,2) (7,1) (7,0): six squares around the goblins, not two.
    assert (moved["feet"], moved["movement_cost"], moved["movement_left"]) == (30, 30, 0)


def test_a_move_through_a_wall_of_foes_beyond_speed_is_refused(dnd: Game) -> None:
    hero, _ = _walled_in(dnd, goblins=4)
    before, revision = dnd.state(), dnd.revision
    error = dnd.fail("combat_move", {"character_id": hero, "x": 7, "y": 0}, sub=PLAYER)
    assert error == {
        "code": "invalid_request",
        "message": (
            "Ash needs 40 ft of movement to reach (7, 0) around the creatures in the way and "
            "has 30 ft left this turn"
        ),
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }
    assert dnd.state() == before and dnd.read("campaign_get")["authority_revision"] == revision


def test_grid_paths_cross_allies_as_difficult_terrain_and_never_foes() -> None:
    def path(**kwargs) -> dict | None:
        base = {
            "width": 5,
            "height": 3,
            "impassable": set(),
            "difficult": set(),
            "crawling": False,
        }
        return rules.grid_path([0, 1], [4, 1], **{**base, **kwargs})

    assert path() == {"feet": 20, "cost": 20}
    assert path(crawling=True) == {"feet": 20, "cost": 40}
    # A column of allies: each square of it costs 5 ft extra, crawling or not.
    column = {(2, 0), (2, 1), (2, 2)}
    assert path(difficult=column) == {"feet": 20, "cost": 25}
    assert path(difficult=column, crawling=True) == {"feet": 20, "cost": 45}
    # A column of foes: no way across.
    assert path(impassable=column) is None
    # A gap at the top: around through it.
    assert path(impassable={(2, 1), (2, 2)}) == {"feet": 20, "cost": 20}
    # Two foes in the way of a 10 ft step: around them below, 15 ft.
    detour = {"width": 5, "height": 3, "impassable": {(1, 0), (1, 1)}, "difficult": set()}
    assert rules.grid_path([0, 1], [2, 0], **detour, crawling=False) == {"feet": 15, "cost": 15}


def test_a_fallen_foe_no_longer_blocks_its_square(dnd: Game) -> None:
    hero, goblins = _walled_in(dnd, goblins=3)
    middle = next(g for g in goblins if dnd.state()["combat"]["positions"][g] == [6, 1])
    dnd.write("damage_apply", {"target_id": middle, "amount": 50})
    # Through the corpse's square, not around the line: (5,0) (6,1) (7,0).
    moved = dnd.write("combat_move", {"character_id": hero, "x": 7, "y": 0}, sub=PLAYER)
    assert (moved["feet"], moved["movement_cost"]) == (10, 10)
    # And onto it: a body is no creature to share a space with.
    moved = dnd.write("combat_move", {"character_id": hero, "x": 6, "y": 1}, sub=PLAYER)
    assert (moved["to"], moved["movement_left"]) == ([6, 1], 15)
    grid = dnd.read("combat_render")["grid"]
    on_square = [(t["name"], t["status"]) for t in grid["tokens"] if [t["x"], t["y"]] == [6, 1]]
    assert sorted(on_square) == [
        ("Ash", "unhurt"),
        (dnd.state()["characters"][middle]["name"], "dead"),
    ]
    # The living are drawn over the dead.
    svg = base64.b64decode(dnd.call("combat_render", {}).content[1].data).decode()
    assert svg.index("<title>Ash (unhurt)</title>") > svg.index(" (dead)</title>")
