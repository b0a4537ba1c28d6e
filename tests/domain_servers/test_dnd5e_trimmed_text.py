"""dnd5e text from a model or a form, with the spaces around it a model's answer carries."""

from __future__ import annotations

from tests.domain_servers.conftest import PLAYER, Game


def _face_to_face(dnd: Game) -> tuple[str, str]:
    """A fighter (a longsword) and a goblin side by side in combat, on the fighter's turn."""
    hero = dnd.write("character_create", {"name": "Ash", "template": "fighter"}, sub=PLAYER)
    dnd.write("phase_set", {"phase": "play"})
    goblin = dnd.write("monster_spawn", {"monster_key": "goblin"})["character"]["id"]
    started = dnd.write("combat_start", {"participant_ids": [hero["character"]["id"], goblin]})
    assert [e["id"] for e in started["combat"]["order"]][0] == goblin
    dnd.write("combat_end_turn")
    return hero["character"]["id"], goblin


def test_an_attack_named_with_spaces_around_it_is_the_attack_of_that_name(dnd: Game) -> None:
    """The attack's own name is kept trimmed, so "  Longsword " matched nothing and the
    player was told the fighter has no attack named '  Longsword '."""
    hero, goblin = _face_to_face(dnd)

    struck = dnd.write(
        "attack",
        {"attacker_id": hero, "target_id": goblin, "attack_name": "  longsword \n"},
        sub=PLAYER,
    )

    assert struck["attack"] == "Longsword"


def test_a_blank_attack_name_is_refused_as_a_blank_name(dnd: Game) -> None:
    hero, goblin = _face_to_face(dnd)
    revision = dnd.revision

    error = dnd.fail(
        "attack", {"attacker_id": hero, "target_id": goblin, "attack_name": " \t"}, sub=PLAYER
    )

    assert (error["code"], error["message"]) == (
        "invalid_request",
        "the attack_name must not be blank",
    )
    assert dnd.read("campaign_get")["authority_revision"] == revision


def test_gm_notes_are_kept_without_the_spaces_around_them_but_with_their_lines(
    dnd: Game,
) -> None:
    made = dnd.write(
        "character_create",
        {"name": "Ash", "template": "fighter", "gm_notes": "\n  Owes.\n\tLies.\n"},
    )["character"]
    dnd.write("phase_set", {"phase": "play"})
    wolf = dnd.write("monster_spawn", {"monster_key": "wolf", "gm_notes": " Hungry \n"})

    assert (made["gm_notes"], wolf["character"]["gm_notes"]) == ("Owes.\n\tLies.", "Hungry")
