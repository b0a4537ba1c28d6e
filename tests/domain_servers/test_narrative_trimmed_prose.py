"""narrative prose (descriptions, resolutions, GM notes) is kept as its names are: trimmed."""

from __future__ import annotations

from tests.domain_servers.conftest import Game

SENT = "\n  The docks are flooded.\n\tThe bridge is out.\n "
KEPT = "The docks are flooded.\n\tThe bridge is out."


def test_scene_and_thread_prose_is_kept_without_the_spaces_around_it(narrative: Game) -> None:
    """A model's description ends in a line break nobody wrote; its inner lines and tabs
    stay."""
    narrative.write("phase_set", {"phase": "play"})
    narrative.write("scene_start", {"title": "Docks", "description": SENT, "gm_notes": SENT})
    thread = narrative.write("thread_open", {"title": "Heist", "description": SENT})["thread_id"]
    narrative.write("thread_resolve", {"thread_id": thread, "resolution": SENT})

    story = narrative.read("story_get")

    scene, (heist,) = story["scene"], story["threads"]
    assert (scene["description"], scene["gm_notes"]) == (KEPT, KEPT)
    assert (heist["description"], heist["resolution"]) == (KEPT, KEPT)


def test_character_gm_notes_are_kept_without_the_spaces_around_them(narrative: Game) -> None:
    made = narrative.write("character_create", {"name": "Ash", "gm_notes": SENT})

    assert made["character"]["gm_notes"] == KEPT
