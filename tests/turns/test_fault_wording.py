"""What a turn's failure tells its player: a stable code, retryability and advice, in words of
the product's own, never an exception's text (hosts, credentials, SQL), which is for the logs."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.rooms.models import Message
from apps.turns.models import RoomTurnJob
from apps.turns.services import job_view, turn_run
from tests.turns.test_jobs import submit

pytestmark = pytest.mark.django_db

SECRET = "postgres://turns:hunter2@db-7.internal:5432/sagasmith"


def _agent_raising(monkeypatch, exc: BaseException) -> None:
    class Failing:
        name = "failing"

        def run_turn(self, turn, call_tool):
            raise exc

    monkeypatch.setattr("apps.turns.services.run.agent_provider", lambda: Failing())


def test_an_unexpected_fault_tells_the_player_no_internal_detail(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    room = dnd_room
    _agent_raising(monkeypatch, KeyError(SECRET))
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "failed"
    job.refresh_from_db()
    assert job_view(job)["error"] == {
        "code": "internal_error",
        "message": "The turn failed unexpectedly.",
        "retryable": False,
        "recovery": "Report this to the operators; the turn was stopped.",
    }
    (outcome,) = Message.objects.filter(event_type="turn.outcome", data__job_id=str(job.pk))
    recipients = [link.user_id for link in outcome.recipient_links.all()]
    assert (outcome.audience, recipients, outcome.body) == (
        "private", [room.player.pk], "The turn failed unexpectedly."
    )  # fmt: skip
    assert outcome.data["error"]["message"] == "The turn failed unexpectedly."


def test_a_passing_fault_tells_the_player_no_internal_detail(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    room = dnd_room
    _agent_raising(monkeypatch, ConnectionError(f"could not reach {SECRET}"))
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "queued"
    job.refresh_from_db()
    assert job_view(job)["error"] == {
        "code": "transient_fault",
        "message": "A passing fault stopped the turn.",
        "retryable": True,
        "recovery": "The turn will be retried automatically.",
    }


def test_an_unexpected_publication_fault_tells_the_player_no_internal_detail(
    dnd_room, monkeypatch, turns_stay_queued, django_capture_on_commit_callbacks
):
    import apps.turns.services.publish as publish

    room = dnd_room
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = submit(room, room.player)

    def broken(**kwargs):
        raise RuntimeError(f"duplicate key in {SECRET}")

    with monkeypatch.context() as patch:
        patch.setattr(publish, "projection_apply", broken)
        with django_capture_on_commit_callbacks(execute=True):
            assert turn_run(job_id=job.pk, heartbeat=False) == "waiting"
    job.refresh_from_db()
    assert job_view(job)["error"] == {
        "code": "publication_failed",
        "message": "The turn's outcome could not be published yet.",
        "retryable": True,
        "recovery": "The result is saved and will be published shortly.",
    }
    # Published from the journal on the next try, as any waiting turn.
    RoomTurnJob.objects.filter(pk=job.pk).update(available_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_run(job_id=job.pk, heartbeat=False) == "succeeded"


def test_a_model_endpoint_s_refusal_tells_the_player_no_part_of_its_answer(
    live_domains, gm, player
):
    """The endpoint's error body (an API key's tail, an account, a model name) is for the
    operators, who are told where to look; the player reads the status alone."""
    from apps.turns.errors import AgentRejected
    from tests.turns.conftest import make_table
    from tests.turns.fake_llm import FakeLLM
    from tests.turns.test_openai_agent import run

    table = make_table("dnd5e", gm, player)
    table.call(gm, "phase_set", phase="play")
    llm = FakeLLM()
    try:
        llm.script = [(401, {"error": "Incorrect API key provided: sk-live-****7f3a"})]
        with pytest.raises(AgentRejected) as caught:
            run(table, llm)
    finally:
        llm.close()
    assert (caught.value.code, caught.value.message, caught.value.details) == (
        "agent_rejected", "The agent endpoint refused the request: HTTP 401.", {"status": 401}
    )  # fmt: skip
