"""A GM's narration as a turn (POST room/actions with task "narration"): its message is a
narration, the game master is given the narration tools of the phase, and what no command
takes is left as the GM said it, with no reply and no charge."""

from __future__ import annotations

import pytest

from apps.domains.registry import get_plugin
from apps.rooms.models import Message
from apps.turns.models import RoomTurnJob
from tests.turns.test_api import _act

pytestmark = pytest.mark.django_db


def _narrate(room, user, key, body, **fields):
    return _act(room, user, key, body=body, task="narration", **fields)


def test_a_gm_narration_runs_with_the_narration_tools(
    dnd_room, turn_urls, eager, django_capture_on_commit_callbacks
):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=True):
        response = _narrate(room, room.gm, "narrate-1", "roll 1d20")
    assert (response.status_code, response.json()["task"]) == (202, "narration"), response.content
    job = RoomTurnJob.objects.select_related("trigger_message").get(pk=response.json()["id"])
    row = get_plugin("dnd5e").facade_tools(phase="lobby", role="gm", task="narration")
    assert (job.task, job.status, job.tools) == ("narration", "succeeded", list(row))
    trigger = job.trigger_message
    assert (trigger.mode, trigger.body, trigger.sender_id) == ("narration", "roll 1d20", room.gm.pk)
    narration = Message.objects.get(event_type="turn.narration", data__job_id=str(job.pk))
    assert narration.data["dice"][0]["expression"] == "1d20"


def test_narration_no_command_takes_gets_no_reply_and_costs_nothing(
    dnd_room, turn_urls, eager, django_capture_on_commit_callbacks
):
    room = dnd_room
    said = "The wind howls through the broken gate."
    with django_capture_on_commit_callbacks(execute=True):
        response = _narrate(room, room.gm, "narrate-2", said)
    assert response.status_code == 202, response.content
    job = RoomTurnJob.objects.get(pk=response.json()["id"])
    assert (job.status, job.charged) == ("succeeded", 0)
    assert list(
        Message.objects.filter(room__campaign=room.campaign).values_list("kind", "mode", "body")
    ) == [("message", "narration", said)]


def test_a_player_cannot_narrate_and_nothing_is_written(dnd_room, turn_urls):
    room = dnd_room
    response = _narrate(room, room.player, "narrate-3", "The dragon dies.")
    error = response.json()["error"]
    assert (response.status_code, error["code"]) == (403, "narration_gm_only")
    assert (Message.objects.filter(mode="narration").count(), RoomTurnJob.objects.count()) == (
        0, 0
    )  # fmt: skip


def test_an_unknown_task_is_refused(dnd_room, turn_urls):
    response = _act(dnd_room, dnd_room.gm, "narrate-4", task="chat")
    assert response.status_code == 400
    assert response.json()["error"]["details"]["fields"]["task"] == [
        '"chat" is not a valid choice.'
    ]


def test_a_key_that_narrated_is_not_reused_for_an_action(
    dnd_room, turn_urls, eager, django_capture_on_commit_callbacks
):
    room = dnd_room
    with django_capture_on_commit_callbacks(execute=True):
        first = _narrate(room, room.gm, "narrate-5", "roll 1d20")
    replay = _narrate(room, room.gm, "narrate-5", "roll 1d20")
    assert (replay.status_code, replay.json()["id"]) == (200, first.json()["id"])
    action = _act(room, room.gm, "narrate-5", body="roll 1d20")
    assert (action.status_code, action.json()["error"]["code"]) == (409, "idempotency_conflict")
