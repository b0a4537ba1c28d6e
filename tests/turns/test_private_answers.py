"""An action the room saw, answered only to its player: the others are told it was answered."""

from __future__ import annotations

import pytest

from apps.rooms.models import Message
from apps.turns.services import turn_action_submit, turn_run
from apps.turns.types import AgentMessage, AgentOutput

pytestmark = pytest.mark.django_db


def answers_alone(monkeypatch) -> None:
    """The agent reads the game state and answers its requester alone."""

    class ReadsAndAnswersAlone:
        def run_turn(self, context, call):
            call("campaign_get", {})
            return AgentOutput(messages=(AgentMessage("The campaign is young.", "requester"),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: ReadsAndAnswersAlone())


def room_lines(job) -> list[tuple[str, str, str, list[str]]]:
    return [
        (m.event_type, m.audience, m.body, [str(r.user_id) for r in m.recipient_links.all()])
        for m in Message.objects.filter(data__job_id=str(job.pk)).order_by("sequence")
    ]


def run(room, user, text, audience="public"):
    job, _ = turn_action_submit(
        membership=room.membership(user), text=text, idempotency_key=f"k-{text}-{audience}",
        audience=audience,
    )  # fmt: skip
    assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"
    return job


def test_a_public_action_answered_only_to_its_player_tells_the_room_so(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    answers_alone(monkeypatch)
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job = run(room, room.player, "how old is the campaign")
    label = room.player.label
    (answer, note) = room_lines(job)
    assert answer[:2] == ("turn.narration", "private")
    assert answer[3] == [str(room.player.pk)]
    assert answer[2] == "The campaign is young."
    assert note == (
        "turn.outcome", "public", f"The game master answered {label} privately.", [],
    )  # fmt: skip
    # Their own page leaves the note out by this.
    assert Message.objects.get(event_type="turn.outcome").data == {
        "job_id": str(job.pk), "status": "succeeded", "answered_privately": str(room.player.pk),
    }  # fmt: skip


def test_a_gm_only_action_answered_to_the_gm_alone_needs_no_note(
    dnd_room, django_capture_on_commit_callbacks
):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job = run(room, room.gm, "help", audience="gm")
    assert [line[:2] for line in room_lines(job)] == [("turn.narration", "private")]


def test_an_answer_the_room_reads_needs_no_note(
    dnd_room, monkeypatch, django_capture_on_commit_callbacks
):
    class AsideAndAnswer:
        def run_turn(self, context, call):
            return AgentOutput(
                messages=(
                    AgentMessage("Only you notice the draught.", "requester"),
                    AgentMessage("The door creaks."),
                )
            )

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: AsideAndAnswer())
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job = run(room, room.player, "open the door")
    assert [line[:3] for line in room_lines(job)] == [
        ("turn.narration", "private", "Only you notice the draught."),
        ("turn.narration", "public", "The door creaks."),
    ]
