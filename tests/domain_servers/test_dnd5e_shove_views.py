"""dnd5e: a shove's contest as each audience sees it. A monster's side of it shows only its
total, as any of its checks and saves does (its ability modifier, proficiency and dice are
its hidden stat block): to the player whose shove it was, to the public, to anyone but the GM.
A player character's side is shown whole."""

from __future__ import annotations

from typing import Any

from domain_servers.common.random_stream import RandomStream
from tests.domain_servers.conftest import GM, PLAYER, Game

# Every d20 a 10. Ash: Athletics, STR 2 and proficiency 2. The goblin resists with its better
# Acrobatics: DEX 2, no proficiency.
ASH = {
    "ability": "str",
    "ability_modifier": 2,
    "bonus": 0,
    "mode": "normal",
    "natural": 10,
    "proficiency": 2,
    "rolls": [10],
    "skill": "athletics",
    "total": 14,
}
GOBLIN = {
    "ability": "dex",
    "ability_modifier": 2,
    "bonus": 0,
    "mode": "normal",
    "natural": 10,
    "proficiency": 0,
    "rolls": [10],
    "skill": "acrobatics",
    "total": 12,
}
# The goblin's check as anyone but the GM sees it: its total, not how it was made.
GOBLIN_SHOWN = {"ability": "dex", "bonus": 0, "mode": "normal", "skill": "acrobatics", "total": 12}


def _ash_and_a_goblin(dnd: Game, monkeypatch) -> tuple[str, str]:
    """Ash (the player's fighter) beside a goblin, whose turn it is; every d20 a 10."""
    ash = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    ash = ash["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    dnd.write("combat_start", {"participant_ids": [ash, goblin]})  # the goblin first
    return ash, goblin


def _send(dnd: Game, args: dict[str, Any], revision: int, sub: str, **claims: Any):
    """`args` sent as one write (the same key each time: a second send is a replay)."""
    result = dnd.call(
        "combat_action",
        {**args, "expected_revision": revision, "idempotency_key": "shove"},
        sub,
        **claims,
    )
    assert not result.is_error, result.structured_content
    return result.structured_content


def test_a_players_shove_shows_the_player_only_the_monsters_total(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_and_a_goblin(dnd, monkeypatch)
    dnd.write("combat_end_turn")
    shove = {"character_id": ash, "action": "shove", "target_id": goblin}
    revision = dnd.revision

    own = _send(dnd, shove, revision, PLAYER)
    dnd.revision += 1

    assert (own["success"], own["effect"]) == (True, "prone")
    assert own["contest"] == {
        "shover_total": 14,
        "target_total": 12,
        "target_skill": "acrobatics",
        "shover_check": ASH,
        "target_check": GOBLIN_SHOWN,
    }
    # Sent again, and at the public view: the same.
    assert _send(dnd, shove, revision, PLAYER) == own
    public = _send(dnd, shove, revision, PLAYER, view="public")
    assert public["contest"] == own["contest"]


def test_the_gms_shove_shows_the_gm_the_monsters_whole_check(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_and_a_goblin(dnd, monkeypatch)
    dnd.write("combat_end_turn")
    shove = {"character_id": ash, "action": "shove", "target_id": goblin}
    revision = dnd.revision

    gm = _send(dnd, shove, revision, GM)
    dnd.revision += 1

    assert (gm["contest"]["shover_check"], gm["contest"]["target_check"]) == (ASH, GOBLIN)
    public = _send(dnd, shove, revision, GM, view="public")
    assert (public["contest"]["shover_check"], public["contest"]["target_check"]) == (
        ASH,
        GOBLIN_SHOWN,
    )


def test_a_monsters_shove_shows_the_public_only_its_total(dnd: Game, monkeypatch) -> None:
    ash, goblin = _ash_and_a_goblin(dnd, monkeypatch)
    shove = {"character_id": goblin, "action": "shove", "target_id": ash}
    revision = dnd.revision

    gm = _send(dnd, shove, revision, GM)
    dnd.revision += 1
    public = _send(dnd, shove, revision, GM, view="public")

    # The goblin's Athletics (STR -1, no proficiency) against Ash's Athletics.
    goblin_athletics = {
        "ability": "str",
        "ability_modifier": -1,
        "bonus": 0,
        "mode": "normal",
        "natural": 10,
        "proficiency": 0,
        "rolls": [10],
        "skill": "athletics",
        "total": 9,
    }
    assert (gm["contest"]["shover_check"], gm["contest"]["target_check"]) == (
        goblin_athletics,
        ASH,
    )
    assert (public["contest"]["shover_check"], public["contest"]["target_check"]) == (
        {"ability": "str", "bonus": 0, "mode": "normal", "skill": "athletics", "total": 9},
        ASH,
    )
    assert (public["success"], public["effect"]) == (False, None)
