"""The room is told "answered privately" of an action answered to its player alone (a refusal,
a private aside), not of a reply that is only help (the help list, a typo asked back)."""

from __future__ import annotations

import pytest

from apps.rooms.models import Message
from apps.turns.types import AgentMessage, AgentOutput
from tests.turns.test_private_answers import room_lines, run

pytestmark = pytest.mark.django_db


def test_a_help_or_typo_reply_to_a_public_action_tells_the_room_nothing(
    dnd_room, django_capture_on_commit_callbacks
):
    room = dnd_room
    for text in ("dance a jig", "help", "atack the goblin"):
        with django_capture_on_commit_callbacks(execute=False):
            job = run(room, room.player, text)
        # Its player reads the reply (and any suggestion); nobody else reads a line of it.
        assert {line[1] for line in room_lines(job)} == {"private"}, text
    assert not Message.objects.filter(event_type="turn.outcome").exists()


def test_a_private_answer_from_the_game_state_tells_the_room_so(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    class ReadsAndAnswersAlone:
        def run_turn(self, context, call):
            call("campaign_get", {})
            return AgentOutput(
                messages=(AgentMessage("Only you notice the draught.", "requester"),),
                tool_calls=1,
            )

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: ReadsAndAnswersAlone())
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job = run(room, room.player, "I feel for a draught")
    assert [line[:3] for line in room_lines(job)] == [
        ("turn.narration", "private", "Only you notice the draught."),
        ("turn.outcome", "public", f"The game master answered {room.player.label} privately."),
    ]


def test_a_refusal_told_privately_still_tells_the_room_so(
    dnd_room, django_capture_on_commit_callbacks
):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job = run(room, room.player, "start combat with 2 goblins")
    assert [line[:3] for line in room_lines(job)] == [
        ("turn.narration", "private", "Only the GM can start combat."),
        ("turn.outcome", "public", f"The game master answered {room.player.label} privately."),
    ]
