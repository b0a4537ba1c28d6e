"""dnd5e: a rogue's Cunning Action (2nd level: Dash, Disengage or Hide as a bonus action) and a
goblin's Nimble Escape (Disengage or Hide as a bonus action), taken with combat_action's
bonus_action, which leaves the action for an attack."""

from __future__ import annotations

from domain_servers.common.random_stream import RandomStream
from domain_servers.dnd5e import rules
from tests.domain_servers.conftest import PLAYER, Game


def _fight(dnd: Game, monkeypatch, template: str, level: int = 2) -> tuple[str, str]:
    pc = dnd.write(
        "character_create",
        {"name": "Rin", "template": template, "level": level, "max_hp": 40},
        sub=PLAYER,
    )["character"]["id"]
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    monkeypatch.setattr(RandomStream, "randint", lambda self, low, high: 10)
    started = dnd.write("combat_start", {"participant_ids": [pc, goblin]})
    if started["combat"]["current"] != pc:
        dnd.write("combat_end_turn")
    return pc, goblin


def _budget(dnd: Game, char_id: str) -> dict:
    order = dnd.read("combat_status")["combat"]["order"]
    return next(e["budget"] for e in order if e["id"] == char_id)


def test_a_2nd_level_rogue_disengages_as_a_bonus_action_and_keeps_its_action(
    dnd: Game, monkeypatch
) -> None:
    rin, goblin = _fight(dnd, monkeypatch, "rogue")

    taken = dnd.write(
        "combat_action",
        {"character_id": rin, "action": "disengage", "bonus_action": True},
        sub=PLAYER,
    )

    assert taken["bonus_action"] is True
    budget = _budget(dnd, rin)
    assert (budget["action"], budget["bonus_action"], budget["disengaged"]) == (1, 0, 1)
    dnd.write("attack", {"attacker_id": rin, "target_id": goblin}, sub=PLAYER)
    moved = dnd.write("combat_move", {"character_id": rin, "x": 2, "y": 0}, sub=PLAYER)
    assert "opportunity_attacks" not in moved


def test_cunning_action_comes_at_2nd_level_and_never_dodges(dnd: Game, monkeypatch) -> None:
    rin, _goblin = _fight(dnd, monkeypatch, "rogue", level=1)

    early = dnd.fail(
        "combat_action", {"character_id": rin, "action": "dash", "bonus_action": True}, PLAYER
    )

    assert early["message"] == (
        "Rin cannot take the Dash action as a bonus action (a rogue's Cunning Action comes at "
        "2nd level)"
    )
    assert _budget(dnd, rin)["bonus_action"] == 1


def test_a_fighter_has_no_bonus_action_dash(dnd: Game, monkeypatch) -> None:
    ash, _goblin = _fight(dnd, monkeypatch, "fighter", level=5)

    refused = dnd.fail(
        "combat_action", {"character_id": ash, "action": "dash", "bonus_action": True}, PLAYER
    )

    assert refused["message"] == "Rin cannot take the Dash action as a bonus action"


def test_a_goblin_escapes_nimbly_but_dashes_with_its_action(dnd: Game, monkeypatch) -> None:
    rin, goblin = _fight(dnd, monkeypatch, "rogue")
    dnd.write("combat_end_turn", {"character_id": rin}, sub=PLAYER)

    hid = dnd.write(
        "combat_action", {"character_id": goblin, "action": "hide", "bonus_action": True}
    )
    dashed = dnd.fail(
        "combat_action", {"character_id": goblin, "action": "dash", "bonus_action": True}
    )

    assert (hid["bonus_action"], _budget(dnd, goblin)["action"]) == (True, 1)
    assert dashed["message"] == (
        "Goblin cannot take the Dash action as a bonus action (Nimble Escape: Disengage or Hide)"
    )


def test_a_goblin_spawned_before_nimble_escape_was_listed_has_it() -> None:
    """Its stored traits (none, then) come with its stat block's."""
    stored = {"kind": "monster", "monster_key": "goblin", "traits": []}

    assert rules.traits(stored) == ["nimble_escape"]
    assert rules.bonus_combat_actions(stored)[0] == {"disengage", "hide"}
