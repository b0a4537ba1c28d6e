"""A player's hit on a monster answered at the public view: the player's own answer already hides
the monster's hit points, and narrowing it again must answer, not fault after the commit."""

from __future__ import annotations

from tests.domain_servers.conftest import PLAYER, Game


def test_a_players_hit_on_a_monster_is_answered_at_the_public_view_and_replays(
    dnd: Game,
) -> None:
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    dnd.write("phase_set", {"phase": "play"})
    ogre = dnd.write("monster_spawn", {"monster_key": "ogre"})["character"]["id"]
    args = {
        "attacker_id": hero["character"]["id"],
        "target_id": ogre,
        "expected_revision": dnd.revision,
        "idempotency_key": "swing",
    }

    first = dnd.call("attack", args, PLAYER, view="public")
    assert not first.is_error, first.structured_content
    shown = first.structured_content
    assert shown["hit"] is True  # the seeded stream hits: the damage is what is narrowed
    assert shown["damage"]["effect"] == {
        "target_id": ogre,
        "dropped_to_zero": False,
        "dead": False,
        "status": "wounded",
    }
    assert shown["receipt"]["authority_revision"] == dnd.revision + 1
    assert first.meta["idempotent_replay"] is False

    again = dnd.call("attack", args, PLAYER, view="public")
    assert not again.is_error, again.structured_content
    assert again.meta["idempotent_replay"] is True
    assert again.structured_content == shown
