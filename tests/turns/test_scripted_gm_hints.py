"""What the scripted GM answers a half-said or unplayable request: what is missing, with an
example that works for whoever asked, and no words the room already shows."""

from __future__ import annotations

import uuid

import pytest

from apps.domains.client import principal_for
from tests.turns.conftest import make_table

pytestmark = pytest.mark.django_db


def test_a_clock_named_without_a_size_is_asked_for_its_segments(live_domains, gm, player):
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    for text, name in [
        ("create clock Doom", "Doom"),
        ("create a clock called Doom.", "Doom"),
        ("create the clock Take Five", "Take Five"),
    ]:
        run = table.run(gm, text, job_id=text)
        answer = f"How many segments? For example: create clock {name} with 6 segments"
        assert (run.texts, run.tools) == ([(answer, "requester")], []), text
        assert run.output.declined, text
    assert table.revision() == before
    # The size still ends the command as before.
    made = table.run(gm, "create clock Doom with 6 segments", job_id="made")
    assert made.tools[-1] == "clock_create"


def test_a_free_action_from_a_gm_without_a_character_offers_no_check_that_names_nobody(
    live_domains, gm, player
):
    """A GM with no character is refused "check investigation" (nobody to check): so the
    GM is told who can make it, and given no button."""
    table = make_table("dnd5e", gm, player)
    table.run(gm, "set phase play", job_id="play")
    before = table.revision()
    for text, check in [
        ("I search the room", "check investigation"),
        ("I listen at the door", "check perception"),
        ("I pick the lock", "check dexterity"),
    ]:
        run = table.run(gm, text, job_id=text)
        assert run.texts == [
            (
                "I can't judge free actions, and you have no character to check with: a "
                f"player can “{check}” for theirs, or roll for anyone with “roll 1d20+3”.",
                "requester",
            )
        ], text
        assert run.output.suggestions == (), text
        assert run.output.declined, text
    assert table.revision() == before


def test_a_fact_told_to_one_player_is_not_labelled_private_twice(live_domains, gm, player):
    """The room badges a message to the requester alone "Private: you" (static/js/room.js):
    its text does not say so again."""
    table = make_table("narrative", gm, player)
    table.run(gm, "set phase play", job_id="play")
    table.call(
        gm, "fact_add", text="Your ring is cursed", audience=f"player:{principal_for(player)}",
        expected_revision=table.revision(), idempotency_key=uuid.uuid4().hex,
    )  # fmt: skip
    assert table.run(player, "look around", job_id="player-look").texts == [
        ("No scene is set.", "trigger"),
        ("Known: Your ring is cursed.", "requester"),
    ]
