"""In narrative, "who's here?" is answered from the story's characters, to the asker (the
story does not place them in a scene: who else is there is the GM's to say), rather than
sent to the GM or the oracle."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", ["who is here?", "Who's here", "who is in the scene?"])
def test_who_is_here_names_the_storys_characters(story, text):
    story.call(story.player, "character_create", name="Ilsa")
    story.call(story.gm, "character_create", name="Bram")
    before = story.revision()
    run = story.run(story.player, text, job_id=text)
    assert run.texts == [
        (
            "The story's characters: Ilsa and Bram. Who else is in the scene is the GM's to say.",
            "requester",
        )
    ]
    assert run.tools == ["campaign_get"]
    assert list(run.output.suggestions) == ["look"]
    assert story.revision() == before


def test_who_is_here_with_no_characters_yet(story):
    run = story.run(story.player, "who is here?", job_id="empty")
    assert run.texts == [
        (
            "The story has no characters yet. Who is in the scene is the GM's to say.",
            "requester",
        )
    ]
