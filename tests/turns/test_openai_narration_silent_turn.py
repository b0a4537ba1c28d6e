"""A GM's narration turn the model answers with no message, end to end (a real local fake
chat-completions server, a live dnd5e server, eager Celery): the narration stays as the GM said
it, with no reply, as the scripted agent leaves one no command takes; the model's use is
charged."""

from __future__ import annotations

import pytest

from apps.quota.models import LedgerEntry
from apps.rooms.models import Message
from apps.turns.models import RoomTurnJob
from tests.turns.fake_llm import completion
from tests.turns.test_api import _act

pytestmark = pytest.mark.django_db


def test_a_narration_the_model_answers_with_no_message_gets_no_reply(
    dnd_room, turn_urls, eager, llm, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.SAGASMITH_AGENT_PROVIDER = "openai"
    monkeypatch.setenv("SAGASMITH_OPENAI_BASE_URL", llm.base_url)
    monkeypatch.setenv("SAGASMITH_OPENAI_MODEL", "m-1")
    llm.script = [(200, completion(content='{"messages": []}'))]
    room = dnd_room
    said = "The wind howls through the broken gate."
    with django_capture_on_commit_callbacks(execute=True):
        response = _act(room, room.gm, "narrate-silent", body=said, task="narration")
    assert response.status_code == 202, response.content
    job = RoomTurnJob.objects.get(pk=response.json()["id"])
    # Unlike the scripted agent's, this silence used a model: the turn and its started thousand
    # tokens are charged, as any model turn's are, and nothing more (no tool call ran).
    assert (job.status, job.charged, job.operations.count()) == ("succeeded", 2, 0)
    assert list(
        LedgerEntry.objects.filter(reservation_id=job.reservation_id).values_list("kind", "amount")
    ) == [("charge", 2)]
    assert job.agent_output["usage"] == {
        "model_calls": 1, "prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15
    }  # fmt: skip
    assert list(
        Message.objects.filter(room__campaign=room.campaign).values_list("kind", "mode", "body")
    ) == [("message", "narration", said)]
    assert len(llm.requests) == 1
