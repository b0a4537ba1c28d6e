"""A delegation narrowed to the public view (`view: "public"`) on a write: the write is
authorized and performed as its requester, its receipt is the write's own, and only its result
is narrowed to what the public may see. A replay answers at the replaying token's view."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from tests.domain_servers.conftest import GM, PLAYER, Game

GOBLIN_PUBLIC = {
    "id": "mon-2",
    "name": "Goblin",
    "kind": "monster",
    "monster_key": "goblin",
    "conditions": [],
    "status": "unhurt",
}


def _send(game: Game, tool: str, args: dict[str, Any], key: str, sub: str = GM, **claims: Any):
    """One write at the campaign's revision (sent again with the same key, a replay)."""
    result = game.call(
        tool, {**args, "expected_revision": game.revision, "idempotency_key": key}, sub, **claims
    )
    assert not result.is_error, result.structured_content
    # The text block says what the structured content says.
    assert json.loads(result.content[0].text) == result.structured_content
    return result


def _write(game: Game, tool: str, args: dict[str, Any], key: str, sub: str = GM, **claims: Any):
    result = _send(game, tool, args, key, sub, **claims)
    assert result.meta["idempotent_replay"] is False
    assert result.structured_content["receipt"]["authority_revision"] == game.revision + 1
    game.revision += 1
    return result.structured_content


def _replay(game: Game, tool: str, args: dict[str, Any], key: str, revision: int, **claims):
    """The write sent again with its key and its revision, as a retrying caller sends it."""
    current, game.revision = game.revision, revision
    try:
        result = _send(game, tool, args, key, **claims)
    finally:
        game.revision = current
    assert result.meta["idempotent_replay"] is True
    return result.structured_content


def test_dnd5e_a_public_view_narrows_what_a_gms_writes_show_not_what_they_do(dnd: Game) -> None:
    hero = _write(dnd, "character_create", {"name": "Ash", "template": "fighter"}, "hero",
                  sub=PLAYER)["character"]  # fmt: skip
    dnd.write("phase_set", {"phase": "play"})

    spawn = {"monster_key": "goblin", "gm_notes": "The baron's lost son."}
    revision = dnd.revision
    shown = _write(dnd, "monster_spawn", spawn, "spawn", view="public")
    receipt = {
        "authority_revision": revision + 1,
        "previous_revision": revision,
        "changed_scopes": ["character:mon-2"],
        "entity_ids": ["mon-2"],
        "audience": "public",
        "idempotency_key": "spawn",
    }
    assert shown == {"character": GOBLIN_PUBLIC, "receipt": receipt}
    # Spawned as the GM spawns it: its notes and stat block are stored.
    goblin = dnd.state()["characters"]["mon-2"]
    assert (goblin["gm_notes"], goblin["hp"], goblin["ac"]) == (
        "The baron's lost son.", {"current": 7, "max": 7, "temp": 0}, 15,
    )  # fmt: skip
    # The same write replayed without the view answers in full, with the same receipt; a
    # narrowed replay is narrowed again (the stored response is the requester's, in full).
    full = _replay(dnd, "monster_spawn", spawn, "spawn", revision)
    assert full == {"character": goblin, "receipt": receipt}
    assert _replay(dnd, "monster_spawn", spawn, "spawn", revision, view="public") == shown
    assert dnd.revision == revision + 1

    damaged = _write(dnd, "damage_apply", {"target_id": "mon-2", "amount": 3}, "hurt",
                     view="public")  # fmt: skip
    assert damaged == {
        "target_id": "mon-2",
        "dropped_to_zero": False,
        "dead": False,
        "status": "wounded",
        "receipt": {**receipt, "authority_revision": revision + 2,
                    "previous_revision": revision + 1, "idempotency_key": "hurt"},
    }  # fmt: skip
    assert dnd.state()["characters"]["mon-2"]["hp"]["current"] == 4
    assert _replay(dnd, "damage_apply", {"target_id": "mon-2", "amount": 3}, "hurt",
                   revision + 1)["hp_after"] == {"current": 4, "max": 7, "temp": 0}  # fmt: skip

    healed = _write(dnd, "heal", {"target_id": "mon-2", "amount": 1}, "mend", view="public")
    healed.pop("receipt")
    assert healed == {"target_id": "mon-2", "target_name": "Goblin", "source": "gm",
                      "revived": False, "status": "wounded"}  # fmt: skip
    assert dnd.state()["characters"]["mon-2"]["hp"]["current"] == 5

    # A GM's attack on a monster shows no AC, and its damage only as the monster's status.
    attack = {"attacker_id": hero["id"], "target_id": "mon-2"}
    attacked = _write(dnd, "attack", attack, "hit", view="public")
    full_attack = _replay(dnd, "attack", attack, "hit", dnd.revision - 1)
    assert full_attack["to_hit"].pop("target_ac") == 15
    assert full_attack["damage"]["effect"]["hp_after"] == {"current": 0, "max": 7, "temp": 0}
    full_attack["damage"]["effect"] = {
        "target_id": "mon-2", "dropped_to_zero": True, "dead": True, "status": "dead",
    }  # fmt: skip
    assert attacked == full_attack  # the receipts, the roll and the names alike

    # Combat's order shows every combatant's public card.
    orc = dnd.write("monster_spawn", {"monster_key": "orc"})["character"]
    started = _write(dnd, "combat_start", {"participant_ids": [hero["id"], orc["id"]]}, "fight",
                     view="public")  # fmt: skip
    cards = {e["id"]: e["character"] for e in started["combat"]["order"]}
    assert cards[orc["id"]] == {**GOBLIN_PUBLIC, "id": orc["id"], "name": "Orc",
                                "monster_key": "orc"}  # fmt: skip
    assert cards[hero["id"]] == {**hero, "status": "unhurt"}
    full_start = _replay(dnd, "combat_start", {"participant_ids": [hero["id"], orc["id"]]},
                         "fight", dnd.revision - 1)  # fmt: skip
    assert full_start["random_stream_receipt"] == started["random_stream_receipt"]
    assert {e["id"]: e["character"] for e in full_start["combat"]["order"]}[orc["id"]] == orc


def test_a_public_view_never_widens_nor_changes_what_the_requester_may_do(dnd: Game) -> None:
    """The requester's role and identity decide the write: a player's narrowed character is
    still theirs, and a narrowed token does not let a player spawn a monster."""
    created = _write(dnd, "character_create", {"name": "Bryn", "template": "rogue"}, "bryn",
                     sub=PLAYER, view="public")  # fmt: skip
    assert created["character"]["controller"] == PLAYER
    assert dnd.state()["characters"][created["character"]["id"]]["controller"] == PLAYER
    dnd.write("phase_set", {"phase": "play"})
    before = dnd.revision
    refused = dnd.call(
        "monster_spawn",
        {"monster_key": "goblin", "expected_revision": before, "idempotency_key": "nope"},
        PLAYER,
        view="public",
    )
    assert refused.structured_content["error"]["code"] == "authorization_denied"
    assert dnd.read("campaign_get")["authority_revision"] == before


def test_a_write_that_declares_no_public_result_is_refused_a_narrowed_token(dnd: Game) -> None:
    """Fail closed: a write that does not say what of its result the public may see is not
    answered narrowed (nor performed)."""
    spec = dnd.domain.tools["dice_roll"]
    dnd.domain.tools["dice_roll"] = dataclasses.replace(spec, public=None)
    before = dnd.revision
    refused = dnd.call(
        "dice_roll",
        {"expression": "1d6", "expected_revision": before, "idempotency_key": "roll"},
        view="public",
    )
    error = refused.structured_content["error"]
    assert (error["code"], error["message"]) == (
        "authorization_denied",
        "a delegation that narrows the view may not call dice_roll, whose result has no "
        "public view",
    )
    assert dnd.read("campaign_get")["authority_revision"] == before


def test_narrative_a_public_view_hides_a_gms_notes_in_a_writes_result(narrative: Game) -> None:
    args = {"name": "Mara", "gm_notes": "Sold the map."}
    created = _write(narrative, "character_create", args, "mara", view="public")
    assert created["character"] == {"id": "ch-1", "name": "Mara", "controller": GM,
                                    "tags": [], "conditions": []}  # fmt: skip
    full = _replay(narrative, "character_create", args, "mara", narrative.revision - 1)
    assert full["character"]["gm_notes"] == "Sold the map."
    assert full["receipt"] == created["receipt"]


def test_every_write_of_every_server_says_what_of_its_result_the_public_sees() -> None:
    """A model's public turn sends every write narrowed: a write without a `public` would be
    refused there, so each one says (even when nothing in its result is hidden)."""
    from domain_servers.dnd5e.tools import tools as dnd5e_tools
    from domain_servers.narrative.tools import tools as narrative_tools

    for tools in (dnd5e_tools, narrative_tools):
        assert [s.name for s in tools() if s.write and s.public is None] == []


def test_a_monsters_check_narrowed_shows_no_stat_block(dnd: Game) -> None:
    """A GM's check or save for a monster, answered at the public view, shows the roll's
    outcome, not the monster's ability modifier (its hidden stat block's scores)."""
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]
    card = dnd.call("character_get", {"character_id": goblin["id"]}, view="public")
    assert "abilities" not in card.structured_content["character"]
    shown = _write(dnd, "saving_throw", {"character_id": goblin["id"], "ability": "dex",
                                         "dc": 12}, "save", view="public")  # fmt: skip
    shown.pop("receipt")
    shown.pop("random_stream_receipt")
    outcome = {"success": shown["success"], "total": shown["total"]}
    assert shown == {"ability": "dex", "bonus": 0, "character_id": goblin["id"],
                     "character_name": "Goblin", "character_kind": "monster", "dc": 12,
                     "kind": "save", "mode": "normal", "skill": None, **outcome}  # fmt: skip
    full = _replay(dnd, "saving_throw", {"character_id": goblin["id"], "ability": "dex",
                                         "dc": 12}, "save", dnd.revision - 1)  # fmt: skip
    assert full["ability_modifier"] == 2 and full["total"] == shown["total"]
    # A character's check is the public's to see in full.
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"})["character"]
    check = _write(dnd, "ability_check", {"character_id": hero["id"], "skill": "athletics",
                                          "dc": 10}, "lift", view="public")  # fmt: skip
    assert (check["ability_modifier"], check["proficiency"]) == (2, 2)
