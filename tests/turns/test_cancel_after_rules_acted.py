"""A running turn cancelled after the domain committed a write of it: the write stands (the
domain is the authority), so the room is told so, and its dice reach everyone who saw the
action, as a finished turn's would, not the player alone."""

from __future__ import annotations

import pytest

from apps.rooms.models import Message
from apps.turns.models import Operation, RoomTurnJob
from apps.turns.services import turn_action_submit, turn_cancel, turn_run
from apps.turns.types import AgentMessage, AgentOutput
from tests.turns.rooms_support import dnd_room  # noqa: F401


@pytest.mark.django_db
def test_a_turn_cancelled_after_its_roll_committed_shows_the_roll_to_the_room(
    dnd_room,  # noqa: F811
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    room = dnd_room
    before = room.domain_revision()
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = turn_action_submit(
            membership=room.membership(room.player), text="roll 1d20", idempotency_key="acted-1"
        )

    class RollsThenCancelled:
        name = "test"

        def run_turn(self, turn, call_tool):
            call_tool("dice_roll", {"expression": "1d20"})
            # The player cancels once the roll is on the domain.
            turn_cancel(job=RoomTurnJob.objects.get(pk=turn.job_id),
                        membership=room.membership(room.player))  # fmt: skip
            call_tool("dice_roll", {"expression": "1d20"})
            return AgentOutput(messages=(AgentMessage("unreachable"),))

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: RollsThenCancelled())
    with django_capture_on_commit_callbacks(execute=False):
        assert turn_run(job_id=job.pk, heartbeat=False) == "cancelled"
    assert room.domain_revision() == before + 1
    (roll,) = Operation.objects.filter(job=job)
    total = roll.result["structuredContent"]["total"]
    # One entry, to everyone who saw the action: no private copy of the dice for the player.
    (note,) = Message.objects.filter(data__job_id=str(job.pk)).exclude(pk=job.trigger_message_id)
    assert (note.event_type, note.audience, note.body, note.data) == (
        "turn.outcome",
        "public",
        f"{room.player.label} cancelled “roll 1d20” after the rules had acted: what they did "
        "stands.",
        {
            "job_id": str(job.pk),
            "status": "cancelled",
            "cancelled_by": str(room.player.pk),
            "cancelled_by_body": "You cancelled “roll 1d20” after the rules had acted: what they "
            "did stands.",
            "dice": [
                {
                    "tool": "dice_roll",
                    "label": "",
                    "expression": "1d20",
                    "total": total,
                    "addends": [total],
                    "dropped": [],
                    "by": room.player.label,
                    "by_id": str(room.player.pk),
                }
            ],
        },
    )
