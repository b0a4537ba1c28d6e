"""What a narrowed (public) answer of dnd5e may show, and that a replay answers what was
answered, as a wary GM and a careful host see them."""

from __future__ import annotations

from typing import Any

from tests.domain_servers.conftest import GM, PLAYER, Game


def _send(game: Game, tool: str, args: dict[str, Any], key: str, revision: int, **claims: Any):
    """A write with its key at `revision` (the same key and revision again: a replay)."""
    result = game.call(
        tool, {**args, "expected_revision": revision, "idempotency_key": key}, GM, **claims
    )
    assert not result.is_error, result.structured_content
    return result


def _goblin(game: Game) -> str:
    game.write("phase_set", {"phase": "play"})
    return game.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]


# -- a narrowed replay answers what the first narrowed send answered ------------------------------


def test_a_narrowed_damage_replayed_after_the_monster_died_answers_as_first_answered(
    dnd: Game,
) -> None:
    goblin = _goblin(dnd)
    revision = dnd.revision
    hurt = {"target_id": goblin, "amount": 3}
    first = _send(dnd, "damage_apply", hurt, "hurt", revision, view="public")
    dnd.revision += 1
    assert first.structured_content["status"] == "wounded"
    dnd.write("damage_apply", {"target_id": goblin, "amount": 10})  # the goblin dies
    again = _send(dnd, "damage_apply", hurt, "hurt", revision, view="public")
    assert again.meta["idempotent_replay"] is True
    assert again.structured_content == first.structured_content
    assert again.content[0].text == first.content[0].text


def test_a_narrowed_heal_replayed_after_the_monster_was_hurt_again_answers_as_first_answered(
    dnd: Game,
) -> None:
    goblin = _goblin(dnd)
    dnd.write("damage_apply", {"target_id": goblin, "amount": 2})
    revision = dnd.revision
    mend = {"target_id": goblin, "amount": 2}
    first = _send(dnd, "heal", mend, "mend", revision, view="public")
    dnd.revision += 1
    assert first.structured_content["status"] == "unhurt"
    dnd.write("damage_apply", {"target_id": goblin, "amount": 5})
    again = _send(dnd, "heal", mend, "mend", revision, view="public")
    assert again.structured_content == first.structured_content


# -- GM-only values stay hidden -------------------------------------------------------------------


def test_a_monsters_attack_narrowed_shows_no_attack_bonus_nor_damage_dice(dnd: Game) -> None:
    """A monster's attack bonus and damage dice are its hidden stat block, as its check
    modifiers are: the public sees the total against the AC and the damage done."""
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    hero_id = hero["character"]["id"]
    goblin = _goblin(dnd)
    revision = dnd.revision
    swing = {"attacker_id": goblin, "target_id": hero_id}
    shown = _send(dnd, "attack", swing, "swing", revision, view="public").structured_content
    full = _send(dnd, "attack", swing, "swing", revision).structured_content
    # The seeded stream: 17 + 4 hits the hero's AC 16; 1d6+2 slashing.
    assert (full["to_hit"]["natural"], full["to_hit"]["bonus"], full["hit"]) == (17, 4, True)
    assert full["damage"]["expression"] == "1d6+2"
    assert shown["to_hit"] == {
        k: v for k, v in full["to_hit"].items() if k not in ("bonus", "natural", "rolls")
    }
    assert shown["damage"] == {
        k: v for k, v in full["damage"].items() if k not in ("expression", "rolls", "detail")
    }
    assert shown["damage"]["total"] == full["damage"]["total"]
    assert shown["damage"]["effect"] == full["damage"]["effect"]  # the hero's own card
    assert {k: v for k, v in shown.items() if k not in ("to_hit", "damage")} == {
        k: v for k, v in full.items() if k not in ("to_hit", "damage")
    }


def test_refusing_to_heal_a_monster_at_full_hit_points_names_no_hit_points(dnd: Game) -> None:
    goblin = _goblin(dnd)
    result = dnd.call(
        "heal",
        {"target_id": goblin, "amount": 1, "expected_revision": dnd.revision,
         "idempotency_key": "mend"},
        GM,
        view="public",
    )  # fmt: skip
    assert result.structured_content["error"] == {
        "code": "invalid_request",
        "message": "Goblin is already at full hit points",
        "retryable": False,
        "recovery": "fix the arguments and retry",
    }
