"""The room's note that a running turn was cancelled says who cancelled it, as a queued turn's
does: the room reads "<who> cancelled “<action>”.", the one who cancelled it "You cancelled
“<action>”." (the room's page picks that sentence from the event's data)."""

from __future__ import annotations

import pytest

from apps.rooms.models import Message
from apps.turns.models import RoomTurnJob
from apps.turns.services import turn_action_submit, turn_cancel, turn_run
from apps.turns.types import AgentMessage, AgentOutput
from tests.turns.rooms_support import dnd_room  # noqa: F401


@pytest.mark.django_db
def test_a_running_turns_cancel_note_names_who_cancelled_it(
    dnd_room,  # noqa: F811
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = turn_action_submit(
            membership=room.membership(room.player), text="roll 1d20", idempotency_key="run-1"
        )

    class CancellingAgent:
        name = "test"

        def run_turn(self, turn, call_tool):
            # The GM cancels the player's turn while it runs.
            turn_cancel(job=RoomTurnJob.objects.get(pk=turn.job_id),
                        membership=room.membership(room.gm))  # fmt: skip
            call_tool("dice_roll", {"expression": "1d20"})
            return AgentOutput(messages=(AgentMessage("unreachable"),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: CancellingAgent())
    assert turn_run(job_id=job.pk, heartbeat=False) == "cancelled"
    (note,) = Message.objects.filter(event_type="turn.outcome", data__job_id=str(job.pk))
    assert (note.audience, note.body, note.data) == (
        "public",
        f"{room.gm.label} cancelled “roll 1d20”.",
        {
            "job_id": str(job.pk),
            "status": "cancelled",
            "cancelled_by": str(room.gm.pk),
            "cancelled_by_body": "You cancelled “roll 1d20”.",
        },
    )
