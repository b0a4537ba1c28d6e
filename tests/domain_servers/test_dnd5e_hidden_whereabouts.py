"""dnd5e: where a hidden monster stands is the GM's to know. The players saw it hide, so its
entry in the initiative order says "hidden", but neither combat_status, the battle map
(combat_render) nor its moves show its square to anyone but the GM until it is revealed. A
hidden player character stays where its party, and the public who see what the players see,
can find it."""

from __future__ import annotations

import base64
from typing import Any

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game

WATCHER = "user:watcher"
# Who reads, as (principal, extra delegation claims): the GM, both players, an observer, and
# the GM answered at the public view (a model narrating a GM's public turn).
PLAYERS = ((PLAYER, {}), (OTHER, {}))
PUBLIC = ((WATCHER, {}), (GM, {"view": "public"}))


# Rin's bow, for a shot at a goblin beyond a melee weapon's reach.
SHORTBOW = {
    "name": "Shortbow",
    "ability": "dex",
    "proficient": True,
    "damage": "1d6",
    "damage_type": "piercing",
    "range": 80,
    "long_range": 320,
}


def _fight(dnd: Game, monkeypatch, rin_attacks: list | None = None) -> dict[str, str]:
    """Rin (the player's rogue), Bram (the other player's fighter) and a goblin, every d20 a
    10: Rin goes first, then the goblin."""
    dnd.write("member_grant", {"principal": WATCHER, "role": "observer"})
    rogue = {"name": "Rin", "template": "rogue"}
    if rin_attacks:
        rogue["attacks"] = rin_attacks
    rin = dnd.write("character_create", rogue, sub=PLAYER)
    bram = dnd.write("character_create", {"name": "Bram", "template": "fighter"}, sub=OTHER)
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    ids = {"rin": rin["character"]["id"], "bram": bram["character"]["id"], "goblin": goblin}
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    started = dnd.write("combat_start", {"participant_ids": sorted(ids.values())})
    assert [e["id"] for e in started["combat"]["order"]] == [ids["rin"], goblin, ids["bram"]]
    return ids


def _goblin_hides(dnd: Game, ids: dict[str, str]) -> None:
    dnd.write("combat_end_turn", {"character_id": ids["rin"]}, sub=PLAYER)
    # Nimble Escape: it hides with its bonus action. 10 + DEX 2 + Stealth 4 against the best
    # passive Perception of the two (Rin's 13).
    hid = dnd.write(
        "combat_action", {"character_id": ids["goblin"], "action": "hide", "bonus_action": True}
    )
    assert hid["hidden"] is True


def _read(dnd: Game, tool: str, sub: str, claims: dict[str, Any]) -> dict[str, Any]:
    result = dnd.call(tool, {}, sub, **claims)
    assert not result.is_error, result.structured_content
    data = result.structured_content
    if tool == "combat_render":
        data = {**data, "svg": base64.b64decode(result.content[1].data).decode()}
    return data


def _entries(dnd: Game, sub: str, claims: dict[str, Any]) -> dict[str, dict[str, Any]]:
    order = _read(dnd, "combat_status", sub, claims)["combat"]["order"]
    return {e["id"]: e for e in order}


def test_combat_status_shows_a_hidden_monsters_square_to_the_gm_alone(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    _goblin_hides(dnd, ids)

    gm = _entries(dnd, GM, {})[ids["goblin"]]
    assert (gm["position"], gm["hidden"]) == ([6, 0], True)
    for sub, claims in PLAYERS + PUBLIC:
        entry = _entries(dnd, sub, claims)[ids["goblin"]]
        # It is known to be hiding, not where.
        assert entry["hidden"] is True, sub
        assert "position" not in entry, (sub, claims)
        assert entry["character"]["id"] == ids["goblin"]


def test_the_battle_map_leaves_a_hidden_monster_off_for_all_but_the_gm(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    _goblin_hides(dnd, ids)

    gm = _read(dnd, "combat_render", GM, {})
    tokens = {t["id"]: (t["x"], t["y"]) for t in gm["grid"]["tokens"]}
    assert tokens == {ids["rin"]: (5, 0), ids["goblin"]: (6, 0), ids["bram"]: (5, 1)}
    assert "<title>Goblin (unhurt)</title>" in gm["svg"]
    for sub, claims in PLAYERS + PUBLIC:
        seen = _read(dnd, "combat_render", sub, claims)
        tokens = {t["id"]: (t["x"], t["y"]) for t in seen["grid"]["tokens"]}
        assert tokens == {ids["rin"]: (5, 0), ids["bram"]: (5, 1)}, (sub, claims)
        assert "Goblin" not in seen["svg"]
        # The rest of the map is the GM's: its size, round and whose turn it is.
        assert {k: v for k, v in seen["grid"].items() if k != "tokens"} == {
            k: v for k, v in gm["grid"].items() if k != "tokens"
        }


def test_a_revealed_monster_is_back_on_everyones_map(dnd: Game, monkeypatch) -> None:
    ids = _fight(dnd, monkeypatch)
    _goblin_hides(dnd, ids)
    # Its attack gives away where it is.
    dnd.write("attack", {"attacker_id": ids["goblin"], "target_id": ids["rin"]})

    for sub, claims in PLAYERS + PUBLIC:
        entry = _entries(dnd, sub, claims)[ids["goblin"]]
        assert (entry["position"], "hidden" in entry) == ([6, 0], False)
        tokens = _read(dnd, "combat_render", sub, claims)["grid"]["tokens"]
        assert ids["goblin"] in {t["id"] for t in tokens}


def test_a_hidden_player_character_stays_on_the_map_for_every_audience(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    # 10 + DEX 3 + Stealth with Expertise 4 against the goblin's passive Perception 9.
    hid = dnd.write("combat_action", {"character_id": ids["rin"], "action": "hide"}, sub=PLAYER)
    assert hid["hidden"] is True

    for sub, claims in ((GM, {}), *PLAYERS, *PUBLIC):
        entry = _entries(dnd, sub, claims)[ids["rin"]]
        assert (entry["position"], entry["hidden"]) == ([5, 0], True)
        tokens = _read(dnd, "combat_render", sub, claims)["grid"]["tokens"]
        assert (ids["rin"], 5, 0) in {(t["id"], t["x"], t["y"]) for t in tokens}


def _move(dnd: Game, args: dict[str, Any], key: str, revision: int, **claims: Any):
    result = dnd.call(
        "combat_move", {**args, "expected_revision": revision, "idempotency_key": key}, **claims
    )
    assert not result.is_error, result.structured_content
    return result


def test_a_hidden_monsters_move_shows_its_squares_to_the_gm_alone(dnd: Game, monkeypatch) -> None:
    ids = _fight(dnd, monkeypatch)
    _goblin_hides(dnd, ids)
    move, revision = {"character_id": ids["goblin"], "x": 9, "y": 3}, dnd.revision

    full = _move(dnd, move, "sneak", revision).structured_content
    dnd.revision += 1
    receipt = full.pop("receipt")
    # Hidden, it provokes no opportunity attack leaving Rin's reach.
    assert full == {
        "character_id": ids["goblin"],
        "hidden": True,
        "from": [6, 0],
        "to": [9, 3],
        "feet": 15,
        "crawled": False,
        "movement_cost": 15,
        "movement_left": 15,
    }
    # The same move as the public sees it (sent again at the public view, a replay): that it
    # moved unseen, nothing of how far or where.
    narrowed = _move(dnd, move, "sneak", revision, view="public")
    assert narrowed.meta["idempotent_replay"] is True
    assert narrowed.structured_content == {
        "character_id": ids["goblin"],
        "hidden": True,
        "receipt": receipt,
    }
    assert _entries(dnd, GM, {})[ids["goblin"]]["position"] == [9, 3]
    assert "position" not in _entries(dnd, PLAYER, {})[ids["goblin"]]


def test_a_seen_monsters_move_shows_where_it_went_to_the_public(dnd: Game, monkeypatch) -> None:
    ids = _fight(dnd, monkeypatch)
    dnd.write("combat_end_turn", {"character_id": ids["rin"]}, sub=PLAYER)
    move = {"character_id": ids["goblin"], "x": 9, "y": 3}

    shown = _move(dnd, move, "walk", dnd.revision, view="public").structured_content
    assert (shown["from"], shown["to"], shown["feet"], "hidden" in shown) == (
        [6, 0], [9, 3], 15, False,
    )  # fmt: skip


def _goblin_sneaks_off(dnd: Game, ids: dict[str, str]) -> None:
    """The goblin hides and moves, unseen, 20 ft from Rin (5, 0) and Bram (5, 1); Rin's turn."""
    _goblin_hides(dnd, ids)
    dnd.write("combat_move", {"character_id": ids["goblin"], "x": 9, "y": 3})
    dnd.write("combat_end_turn", {"character_id": ids["goblin"]})
    dnd.write("combat_end_turn", {"character_id": ids["bram"]}, sub=OTHER)


def _refused(dnd: Game, tool: str, args: dict[str, Any], sub: str) -> str:
    before, revision = dnd.state(), dnd.revision
    error = dnd.fail(tool, args, sub=sub)
    assert (dnd.state(), dnd.revision) == (before, revision)
    assert error["code"] == "invalid_request"
    return error["message"]


def test_a_hidden_monster_out_of_reach_is_refused_without_saying_how_far(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    _goblin_sneaks_off(dnd, ids)
    attack = {"attacker_id": ids["rin"], "target_id": ids["goblin"]}
    shove = {"character_id": ids["rin"], "action": "shove", "target_id": ids["goblin"]}
    help_ = {"character_id": ids["rin"], "action": "help", "ally_id": ids["bram"]}

    assert _refused(dnd, "attack", attack, PLAYER) == (
        "Goblin is hidden, and not close enough to Rin; Shortsword reaches 5 ft. Move closer first."
    )
    assert _refused(dnd, "combat_action", shove, PLAYER) == (
        "Goblin is hidden, and not close enough to Rin; a shove reaches 5 ft"
    )
    assert _refused(dnd, "combat_action", help_ | {"target_id": ids["goblin"]}, PLAYER) == (
        "Goblin is hidden, and not close enough to Rin; the Help action aids an attack on a "
        "foe within 5 ft of the helper"
    )
    # The GM knows where it is.
    assert _refused(dnd, "attack", attack, GM) == (
        "Goblin is 20 ft away from Rin; Shortsword reaches 5 ft. Move closer first."
    )


def test_an_attack_on_a_hidden_monster_shows_the_gm_alone_how_far_it_was(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch, rin_attacks=[SHORTBOW])
    _goblin_sneaks_off(dnd, ids)
    shot, revision = {"attacker_id": ids["rin"], "target_id": ids["goblin"]}, dnd.revision

    full = dnd.call("attack", {**shot, "expected_revision": revision, "idempotency_key": "shot"})
    dnd.revision += 1
    assert full.structured_content["range"] == {
        "distance_ft": 20, "kind": "ranged", "disadvantage": [],
    }  # fmt: skip
    assert full.structured_content["to_hit"]["disadvantage_reasons"] == ["Goblin is hidden"]
    # The GM's shot answered at the public view (sent again: a replay).
    narrowed = dnd.call(
        "attack", {**shot, "expected_revision": revision, "idempotency_key": "shot"}, view="public"
    )
    assert narrowed.meta["idempotent_replay"] is True
    assert narrowed.structured_content["range"] == {"kind": "ranged", "disadvantage": []}
    # A shot does not give away where its target is: still hidden, still off the map.
    assert "position" not in _entries(dnd, PLAYER, {})[ids["goblin"]]
    for ending, sub in ((ids["rin"], PLAYER), (ids["goblin"], GM), (ids["bram"], OTHER)):
        dnd.write("combat_end_turn", {"character_id": ending}, sub=sub)
    # Rin's own shot, next round.
    assert dnd.write("attack", shot, sub=PLAYER)["range"] == {"kind": "ranged", "disadvantage": []}


def test_a_hidden_monsters_movement_left_is_shown_to_the_gm_alone(dnd: Game, monkeypatch) -> None:
    ids = _fight(dnd, monkeypatch)
    _goblin_hides(dnd, ids)
    dnd.write("combat_move", {"character_id": ids["goblin"], "x": 9, "y": 3})

    # Feet left would say how far it went, and so where it may be.
    gm = _entries(dnd, GM, {})[ids["goblin"]]
    assert gm["budget"] == {"action": 1, "bonus_action": 0, "reaction": 1, "movement": 15}
    for sub, claims in PLAYERS + PUBLIC:
        entry = _entries(dnd, sub, claims)[ids["goblin"]]
        assert entry["budget"] == {"action": 1, "bonus_action": 0, "reaction": 1}, (sub, claims)
    # A seen combatant's movement is everyone's to read.
    for sub, claims in PLAYERS + PUBLIC:
        assert _entries(dnd, sub, claims)[ids["rin"]]["budget"]["movement"] == 30


def _rin_beside_the_hidden_goblin(dnd: Game, monkeypatch) -> dict[str, str]:
    """The goblin hides beside Rin (5, 0) at (6, 0); Rin's turn again, and her shove wins: her
    d20 a 20 (Athletics -1), the goblin's a 1 (Acrobatics +2)."""
    ids = _fight(dnd, monkeypatch)
    _goblin_hides(dnd, ids)
    dnd.write("combat_end_turn", {"character_id": ids["goblin"]})
    dnd.write("combat_end_turn", {"character_id": ids["bram"]}, sub=OTHER)
    rolls = iter([20, 1])
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: next(rolls))
    return ids


def test_a_shove_that_pushes_a_hidden_monster_says_where_to_the_gm_alone(
    dnd: Game, monkeypatch
) -> None:
    ids = _rin_beside_the_hidden_goblin(dnd, monkeypatch)
    shove = {
        "character_id": ids["rin"], "action": "shove", "target_id": ids["goblin"], "shove": "push",
    }  # fmt: skip
    revision = dnd.revision

    full = dnd.call(
        "combat_action", {**shove, "expected_revision": revision, "idempotency_key": "push"}
    )
    dnd.revision += 1
    assert not full.is_error, full.structured_content
    assert (full.structured_content["effect"], full.structured_content["to"]) == ("pushed", [7, 0])
    # The GM's shove answered at the public view (sent again: a replay): pushed, not where to.
    narrowed = dnd.call(
        "combat_action",
        {**shove, "expected_revision": revision, "idempotency_key": "push"},
        view="public",
    )
    assert narrowed.meta["idempotent_replay"] is True
    shown = narrowed.structured_content
    assert (shown["success"], shown["effect"], "to" in shown) == (True, "pushed", False)
    assert _entries(dnd, GM, {})[ids["goblin"]]["position"] == [7, 0]


def test_a_players_shove_of_a_hidden_monster_does_not_say_where_it_went(
    dnd: Game, monkeypatch
) -> None:
    ids = _rin_beside_the_hidden_goblin(dnd, monkeypatch)
    shove = {
        "character_id": ids["rin"], "action": "shove", "target_id": ids["goblin"], "shove": "push",
    }  # fmt: skip

    shown = dnd.write("combat_action", shove, sub=PLAYER)
    assert (shown["success"], shown["effect"], "to" in shown) == (True, "pushed", False)
    assert _entries(dnd, GM, {})[ids["goblin"]]["position"] == [7, 0]
    assert "position" not in _entries(dnd, PLAYER, {})[ids["goblin"]]


def test_a_players_shove_of_a_seen_monster_says_where_it_went(dnd: Game, monkeypatch) -> None:
    ids = _fight(dnd, monkeypatch)
    rolls = iter([20, 1])
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: next(rolls))
    shove = {
        "character_id": ids["rin"], "action": "shove", "target_id": ids["goblin"], "shove": "push",
    }  # fmt: skip

    shown = dnd.write("combat_action", shove, sub=PLAYER)
    assert (shown["effect"], shown["to"]) == ("pushed", [7, 0])


def test_a_shot_at_a_hidden_monster_beyond_normal_range_says_so_to_the_gm_alone(
    dnd: Game, monkeypatch
) -> None:
    sling = {
        "name": "Sling",
        "ability": "dex",
        "proficient": True,
        "damage": "1d4",
        "damage_type": "bludgeoning",
        "range": 10,
        "long_range": 40,
    }
    ids = _fight(dnd, monkeypatch, rin_attacks=[sling])
    _goblin_sneaks_off(dnd, ids)  # 20 ft away: beyond the sling's 10 ft
    shot, revision = {"attacker_id": ids["rin"], "target_id": ids["goblin"]}, dnd.revision

    full = dnd.call("attack", {**shot, "expected_revision": revision, "idempotency_key": "shot"})
    dnd.revision += 1
    assert full.structured_content["range"]["disadvantage"] == ["long range"]
    assert full.structured_content["to_hit"]["disadvantage_reasons"] == [
        "long range", "Goblin is hidden",
    ]  # fmt: skip
    narrowed = dnd.call(
        "attack", {**shot, "expected_revision": revision, "idempotency_key": "shot"}, view="public"
    )
    assert narrowed.meta["idempotent_replay"] is True
    # Unseen, it is attacked with disadvantage all the same: nothing says how far it is.
    assert narrowed.structured_content["range"] == {"kind": "ranged", "disadvantage": []}
    to_hit = narrowed.structured_content["to_hit"]
    assert (to_hit["mode"], to_hit["disadvantage_reasons"]) == (
        "disadvantage",
        ["Goblin is hidden"],
    )
    for ending, sub in ((ids["rin"], PLAYER), (ids["goblin"], GM), (ids["bram"], OTHER)):
        dnd.write("combat_end_turn", {"character_id": ending}, sub=sub)
    # Rin's own shot, next round.
    own = dnd.write("attack", shot, sub=PLAYER)
    assert own["range"] == {"kind": "ranged", "disadvantage": []}
    assert (own["to_hit"]["mode"], own["to_hit"]["disadvantage_reasons"]) == (
        "disadvantage", ["Goblin is hidden"],
    )  # fmt: skip


def _bram_walks_off(dnd: Game, monkeypatch) -> tuple[dict[str, str], dict[str, Any]]:
    """The goblin hides beside Bram (5, 1) at (6, 0), and on Bram's turn he walks off to
    (2, 4), leaving its reach: the GM's whole answer and Bram's move."""
    ids = _fight(dnd, monkeypatch)
    _goblin_hides(dnd, ids)
    dnd.write("combat_end_turn", {"character_id": ids["goblin"]})
    return ids, {"character_id": ids["bram"], "x": 2, "y": 4}


def test_a_hidden_monsters_opportunity_attack_is_named_to_the_gm_alone(
    dnd: Game, monkeypatch
) -> None:
    ids, move = _bram_walks_off(dnd, monkeypatch)
    revision = dnd.revision

    full = _move(dnd, move, "walk", revision).structured_content
    dnd.revision += 1
    assert full["opportunity_attacks"] == [
        {"attacker_id": ids["goblin"], "attacker_name": "Goblin", "hidden": True}
    ]
    narrowed = _move(dnd, move, "walk", revision, view="public").structured_content
    assert (narrowed["to"], "opportunity_attacks" in narrowed) == ([2, 4], False)
    # The GM's read of the fight carries the open window; no one else's does.
    window = {
        "attacker_id": ids["goblin"],
        "attacker_name": "Goblin",
        "target_id": ids["bram"],
        "target_name": "Bram",
        "at": [5, 1],
    }
    assert _read(dnd, "combat_status", GM, {})["combat"]["opportunity"] == [window]
    for sub, claims in PLAYERS + PUBLIC:
        assert "opportunity" not in _read(dnd, "combat_status", sub, claims)["combat"]
    # The goblin takes it: its attack reveals it, and the window closes.
    dnd.write(
        "attack", {"attacker_id": ids["goblin"], "target_id": ids["bram"], "as_reaction": True}
    )
    assert "opportunity" not in _read(dnd, "combat_status", GM, {})["combat"]


def test_a_players_move_leaves_out_the_hidden_monster_it_provoked(dnd: Game, monkeypatch) -> None:
    ids, move = _bram_walks_off(dnd, monkeypatch)

    shown = dnd.write("combat_move", move, sub=OTHER)
    assert (shown["to"], "opportunity_attacks" in shown) == ([2, 4], False)
    assert [
        w["attacker_id"] for w in _read(dnd, "combat_status", GM, {})["combat"]["opportunity"]
    ] == [ids["goblin"]]


def test_a_hidden_monsters_dash_says_its_movement_left_to_the_gm_alone(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    _goblin_hides(dnd, ids)
    dnd.write("combat_move", {"character_id": ids["goblin"], "x": 9, "y": 3})
    dash, revision = {"character_id": ids["goblin"], "action": "dash"}, dnd.revision

    full = dnd.call(
        "combat_action", {**dash, "expected_revision": revision, "idempotency_key": "dash"}
    )
    dnd.revision += 1
    assert not full.is_error, full.structured_content
    shown = full.structured_content
    assert (shown["movement_gained"], shown["movement_left"], shown["hidden"]) == (30, 45, True)
    # The GM's Dash answered at the public view (sent again: a replay): that it dashed, not
    # how far it has left to go (which says how far it went).
    narrowed = dnd.call(
        "combat_action",
        {**dash, "expected_revision": revision, "idempotency_key": "dash"},
        view="public",
    )
    assert narrowed.meta["idempotent_replay"] is True
    shown = narrowed.structured_content
    assert (shown["action"], shown["movement_gained"], "movement_left" in shown) == (
        "dash", 30, False,
    )  # fmt: skip


def test_a_hidden_player_characters_dash_says_its_movement_left_to_all(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    dnd.write("combat_end_turn", {"character_id": ids["rin"]}, sub=PLAYER)
    dnd.write("combat_end_turn", {"character_id": ids["goblin"]})
    dnd.write("combat_end_turn", {"character_id": ids["bram"]}, sub=OTHER)
    # Rin is a 1st-level rogue: no Cunning Action yet, so Hide then (next turn) Dash.
    assert dnd.write("combat_action", {"character_id": ids["rin"], "action": "hide"}, sub=PLAYER)[
        "hidden"
    ]
    dnd.write("combat_end_turn", {"character_id": ids["rin"]}, sub=PLAYER)
    dnd.write("combat_end_turn", {"character_id": ids["goblin"]})
    dnd.write("combat_end_turn", {"character_id": ids["bram"]}, sub=OTHER)
    dashed = dnd.write("combat_action", {"character_id": ids["rin"], "action": "dash"}, sub=PLAYER)
    assert dashed["movement_left"] == 60


def test_a_hidden_monsters_stand_up_says_its_movement_left_to_the_gm_alone(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    dnd.write("condition_add", {"target_id": ids["goblin"], "condition": "prone"})
    _goblin_hides(dnd, ids)
    # Crawling 5 ft costs 10 of its 30 ft.
    dnd.write("combat_move", {"character_id": ids["goblin"], "x": 7, "y": 0})
    stand, revision = {"character_id": ids["goblin"]}, dnd.revision

    full = dnd.call("stand_up", {**stand, "expected_revision": revision, "idempotency_key": "up"})
    dnd.revision += 1
    assert not full.is_error, full.structured_content
    shown = full.structured_content
    assert (shown["movement_cost"], shown["movement_left"]) == (15, 5)
    # The GM's stand_up answered at the public view (sent again: a replay): that it stood, not
    # how far it has left to go (which says how far it went).
    narrowed = dnd.call(
        "stand_up", {**stand, "expected_revision": revision, "idempotency_key": "up"}, view="public"
    )
    assert narrowed.meta["idempotent_replay"] is True
    shown = narrowed.structured_content
    assert (shown["conditions"], shown["movement_cost"], "movement_left" in shown) == (
        [], 15, False,
    )  # fmt: skip


def test_a_seen_monsters_stand_up_says_its_movement_left_to_the_public(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch)
    dnd.write("condition_add", {"target_id": ids["goblin"], "condition": "prone"})
    dnd.write("combat_end_turn", {"character_id": ids["rin"]}, sub=PLAYER)

    shown = dnd.write("stand_up", {"character_id": ids["goblin"]}, view="public")
    assert (shown["movement_left"], "hidden" in shown) == (15, False)


def test_a_shot_at_a_hidden_monster_replayed_after_it_is_revealed_still_hides_how_far(
    dnd: Game, monkeypatch
) -> None:
    ids = _fight(dnd, monkeypatch, rin_attacks=[SHORTBOW])
    _goblin_sneaks_off(dnd, ids)
    shot, revision = {"attacker_id": ids["rin"], "target_id": ids["goblin"]}, dnd.revision
    full = dnd.call("attack", {**shot, "expected_revision": revision, "idempotency_key": "shot"})
    dnd.revision += 1
    assert full.structured_content["range"]["distance_ft"] == 20
    dnd.write("combat_end_turn", {"character_id": ids["rin"]}, sub=PLAYER)
    # The goblin's own shot gives it away.
    dnd.write(
        "attack",
        {"attacker_id": ids["goblin"], "target_id": ids["rin"], "attack_name": "Shortbow"},
    )
    assert "hidden" not in _entries(dnd, PLAYER, {})[ids["goblin"]]

    # Where it stood when it was shot at was the GM's then, and a replay answers the same.
    narrowed = dnd.call(
        "attack", {**shot, "expected_revision": revision, "idempotency_key": "shot"}, view="public"
    )
    assert narrowed.meta["idempotent_replay"] is True
    assert narrowed.structured_content["range"] == {"kind": "ranged", "disadvantage": []}
