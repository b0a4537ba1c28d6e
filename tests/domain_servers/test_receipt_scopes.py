"""Receipts name every scope whose read view a write changed: hosts refresh only the panels
whose scopes a receipt names, and keep every other panel as current."""

from __future__ import annotations

import copy
from typing import Any

from tests.domain_servers.conftest import GM, OTHER, PLAYER, Game

# Read tool -> the receipt scopes that refresh a panel built from it (a scope matches when it
# equals a prefix or starts with "<prefix>:"), as the web host's plugins declare them.
DND5E_READS = {
    "campaign_get": ("campaign", "membership", "character"),
    "combat_status": ("combat", "phase"),
    "combat_render": ("combat",),
}
NARRATIVE_READS = {
    "campaign_get": ("campaign", "character"),
    "story_get": ("scene", "threads", "clocks"),
}


def _covered(scopes: list[str], prefixes: tuple[str, ...]) -> bool:
    return any(s == p or s.startswith(f"{p}:") for s in scopes for p in prefixes)


def _view(game: Game, tool: str, sub: str) -> Any:
    result = game.call(tool, {}, sub)
    if result.is_error:
        return ("error", result.structured_content["error"]["code"])
    data = copy.deepcopy(result.structured_content)
    data.pop("authority_revision")
    if tool == "campaign_get":
        # Every roll moves the stream; results carry their own random_stream_receipt.
        data["campaign"]["random_stream"].pop("position")
    if tool == "story_get":
        # No panel shows facts (fact_add names the "facts" scope).
        data.pop("facts")
    return data


class Audited:
    """Writes through the pipeline, checking each receipt against the views it changed, as
    the GM and as a player (their views differ)."""

    def __init__(self, game: Game, reads: dict[str, tuple[str, ...]]) -> None:
        self.game = game
        self.reads = reads

    def views(self) -> dict[tuple[str, str], Any]:
        return {(t, s): _view(self.game, t, s) for t in self.reads for s in (GM, PLAYER)}

    def write(self, tool: str, args: dict[str, Any] | None = None, sub: str = GM) -> dict:
        before = self.views()
        result = self.game.write(tool, args, sub)
        after = self.views()
        scopes = result["receipt"]["changed_scopes"]
        assert scopes == sorted(scopes)
        for (read, viewer), view in after.items():
            if view != before[(read, viewer)]:
                assert _covered(scopes, self.reads[read]), (tool, scopes, read, viewer)
        return result


def test_dnd5e_damage_names_combat_only_for_a_combatant_in_a_running_combat(dnd: Game) -> None:
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)[
        "character"
    ]["id"]
    dnd.write("phase_set", {"phase": "play"})
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    rat = dnd.write("monster_spawn", {"monster_key": "giant_rat"})["character"]["id"]

    outside = dnd.write("damage_apply", {"target_id": ogre, "amount": 3})
    assert outside["receipt"]["changed_scopes"] == [f"character:{ogre}"]

    started = dnd.write("combat_start", {"participant_ids": [hero, ogre]})
    assert started["receipt"]["changed_scopes"] == ["campaign", "combat", "phase"]
    inside = dnd.write("damage_apply", {"target_id": ogre, "amount": 3})
    assert inside["receipt"]["changed_scopes"] == [f"character:{ogre}", "combat"]
    # The rat is not fighting: the combat views do not change.
    bystander = dnd.write("damage_apply", {"target_id": rat, "amount": 1})
    assert bystander["receipt"]["changed_scopes"] == [f"character:{rat}"]

    ended = dnd.write("combat_end")
    assert ended["receipt"]["changed_scopes"] == ["campaign", "combat", "phase"]
    after = dnd.write("damage_apply", {"target_id": ogre, "amount": 3})
    assert after["receipt"]["changed_scopes"] == [f"character:{ogre}"]


def test_dnd5e_every_write_names_the_views_it_changes(dnd: Game) -> None:
    audit = Audited(dnd, DND5E_READS)
    # Enough hit points that the ogre cannot drop or kill Ash before the script does.
    hero = audit.write(
        "character_create", {"name": "Ash", "template": "fighter", "max_hp": 60}, sub=PLAYER
    )["character"]["id"]
    audit.write("member_grant", {"principal": "user:late", "role": "observer"})
    audit.write("member_revoke", {"principal": "user:late"})
    audit.write("phase_set", {"phase": "play"})
    ogre = audit.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    rat = audit.write("monster_spawn", {"monster_key": "giant_rat"})["character"]["id"]
    audit.write("ability_check", {"character_id": hero, "skill": "athletics", "dc": 10})
    audit.write("condition_add", {"target_id": ogre, "condition": "prone"})
    audit.write("condition_remove", {"target_id": ogre, "condition": "prone"})

    audit.write("combat_start", {"participant_ids": [hero, ogre]})
    combat = dnd.read("combat_status")["combat"]
    current = combat["current"]
    other = hero if current == ogre else ogre
    # One square down the line: still within 5 ft (a diagonal) of the foe it started facing.
    column = next(e["position"][0] for e in combat["order"] if e["id"] == current)
    audit.write("combat_move", {"character_id": current, "x": column, "y": 1})
    audit.write("attack", {"attacker_id": current, "target_id": other})
    audit.write("combat_end_turn")
    audit.write("saving_throw", {"character_id": hero, "ability": "con", "dc": 10})
    audit.write("condition_add", {"target_id": ogre, "condition": "poisoned"})
    audit.write("condition_remove", {"target_id": ogre, "condition": "poisoned"})
    audit.write("damage_apply", {"target_id": rat, "amount": 1})
    hp = dnd.read("character_get", {"character_id": hero})["character"]["hp"]
    # Down to exactly 0 HP: dying, not dead.
    audit.write("damage_apply", {"target_id": hero, "amount": hp["current"] + hp["temp"]})
    # Dropped on its own turn, it saves as its next turn starts.
    audit.write("combat_end_turn")
    audit.write("combat_end_turn")
    saved = audit.write("death_save", {"character_id": hero}, sub=PLAYER)
    assert "combat" in saved["receipt"]["changed_scopes"]
    if saved["outcome"] != "revived":
        # Ash is unconscious and cannot drink a potion: the GM heals.
        healed = audit.write("heal", {"target_id": hero, "amount": 5})
        assert healed["receipt"]["changed_scopes"] == [f"character:{hero}", "combat"]
    audit.write("dice_roll", {"expression": "1d20"}, sub=OTHER)
    audit.write("combat_end")
    audit.write("heal", {"target_id": hero, "amount": 1})


def test_narrative_every_write_names_the_views_it_changes(narrative: Game) -> None:
    audit = Audited(narrative, NARRATIVE_READS)
    audit.write("character_create", {"name": "Ilse", "tags": ["sailor"]}, sub=PLAYER)
    audit.write("member_grant", {"principal": "user:late", "role": "observer"})
    audit.write("member_revoke", {"principal": "user:late"})
    phase = audit.write("phase_set", {"phase": "play"})
    assert phase["receipt"]["changed_scopes"] == ["campaign", "phase"]
    audit.write("character_update", {"character_id": "ch-1", "add_tags": ["wet"]}, sub=PLAYER)
    scene = audit.write("scene_start", {"title": "Docks"})
    assert scene["receipt"]["changed_scopes"] == ["campaign", "scene"]
    audit.write("scene_start", {"title": "Tavern"})
    thread = audit.write("thread_open", {"title": "Missing captain"})["thread_id"]
    audit.write("thread_resolve", {"thread_id": thread})
    clock = audit.write("clock_create", {"name": "Storm", "segments": 4})["clock_id"]
    audit.write("clock_advance", {"clock_id": clock, "ticks": 2})
    audit.write("fact_add", {"text": "The tide is high."})
    audit.write("oracle_ask", {"question": "Rain?", "likelihood": "likely"}, sub=PLAYER)
    ended = audit.write("scene_end")
    assert ended["receipt"]["changed_scopes"] == ["campaign", "scene"]
