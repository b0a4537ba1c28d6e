"""A player's public action the agent answers to the game master alone: its player read no
answer, so they are told, in words of their own, that it went to the game master only; the
others read that too, not that the game master answered the player privately."""

from __future__ import annotations

import pytest

from apps.rooms.models import Room
from apps.rooms.selectors import MANAGER_ROLES, room_messages_for_viewer
from apps.turns.types import AgentMessage, AgentOutput
from tests.campaigns.conftest import join
from tests.turns.test_private_answers import answers_alone, run

pytestmark = pytest.mark.django_db


def timeline(room, user, job) -> list[str]:
    """The bodies of the turn's entries the user's room page shows: what the room selector
    gives them, less a note that an action was answered privately when they read the answer:
    their own action's, or any for a GM, who reads every answer (room.js `inTimeline`)."""
    membership = room.membership(user)
    reads_every_answer = membership.role in MANAGER_ROLES
    return [
        m.body
        for m in room_messages_for_viewer(
            room=Room.objects.get(campaign=room.campaign), viewer_membership=membership
        )
        if m.data.get("job_id") == str(job.pk)
        and not (
            m.data.get("answered_privately")
            and (reads_every_answer or m.data["answered_privately"] == str(user.pk))
        )
    ]


def answers_gm_only(monkeypatch) -> None:
    class AnswersTheGmAlone:
        def run_turn(self, context, call):
            return AgentOutput(
                messages=(
                    AgentMessage("The lock is a fake.", "gm"),
                    AgentMessage("The vault beyond is empty.", "gm"),
                )
            )

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: AnswersTheGmAlone())


def test_a_player_whose_action_is_answered_to_the_gm_only_is_told_so_and_so_is_the_room(
    dnd_room, monkeypatch, make_user, django_capture_on_commit_callbacks
):
    room = dnd_room
    other = make_user("bo@example.test", display_name="Bo")
    join(room.campaign, room.gm, other)
    answers_gm_only(monkeypatch)
    with django_capture_on_commit_callbacks(execute=False):
        job = run(room, room.player, "I pick the lock")
    label = room.player.label
    room_note = f"{label}'s action was answered to the game master only."
    own_note = "Your action was answered to the game master only."
    assert timeline(room, room.player, job) == [own_note]
    assert timeline(room, other, job) == [room_note]
    # The GM reads the answer and what its player was told, not the room's note.
    assert timeline(room, room.gm, job) == [
        "The lock is a fake.", "The vault beyond is empty.", own_note,
    ]  # fmt: skip


def test_a_player_who_read_a_private_answer_is_still_not_shown_the_rooms_note(
    dnd_room, monkeypatch, make_user, django_capture_on_commit_callbacks
):
    room = dnd_room
    other = make_user("bo@example.test", display_name="Bo")
    join(room.campaign, room.gm, other)
    answers_alone(monkeypatch)
    with django_capture_on_commit_callbacks(execute=False):
        job = run(room, room.player, "how old is the campaign")
    note = f"The game master answered {room.player.label} privately."
    assert timeline(room, room.player, job) == ["The campaign is young."]
    assert timeline(room, other, job) == [note]
    assert timeline(room, room.gm, job) == ["The campaign is young."]
