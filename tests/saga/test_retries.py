"""Requests repeated after a lost response: workerFinished+stageId, saga_start+requestId."""

import asyncio

import pytest
from django.db import IntegrityError, transaction

from apps.core.models import AuditEvent
from apps.saga import mcp_server, services
from apps.saga.errors import InvalidInput, SagaStateConflict
from apps.saga.models import Saga
from apps.saga.profiles import get_profile
from tests.saga.conftest import finish, simple_plan, snapshot, started

pytestmark = pytest.mark.django_db


# --- workerFinished with stageId ------------------------------------------------------------


def finish_again(user, saga_id, *args, **kwargs):
    """A repeated workerFinished: it changes nothing; returns its response."""
    before = snapshot(saga_id)
    retry = finish(user, saga_id, *args, **kwargs)
    assert snapshot(saga_id) == before
    return retry


def test_worker_context_asks_for_the_stage_id(user):
    _, out = started(user, plan=simple_plan(2))
    assert (
        'When finished, call saga_advance(sagaId, workerFinished=true, stageId="stage-01", '
        "artifacts=[{path, content}])." in out["workerContext"].splitlines()
    )


def test_repeated_worker_finished_for_a_passed_stage_changes_nothing(user):
    saga_id, _ = started(user, plan=simple_plan(3))
    first = finish(user, saga_id, "part1.md", content="one", stage_id="stage-01")
    assert (first["nextAction"], first["stageId"]) == ("worker_mode_queued", "stage-02")
    # The response was lost; the client sends the same call again (other content, even).
    retry = finish_again(user, saga_id, "part1.md", content="changed", stage_id="stage-01")
    assert {k: v for k, v in retry.items() if k not in ("progress", "workerContext")} == {
        "nextAction": "continue_worker_now",
        "reason": "Worker mode active for stage stage-02",
        "alreadyRecorded": True,
        "notice": "workerFinished for stage-01 was already recorded; nothing was changed.",
    }
    assert retry["workerContext"].startswith('## Worker Mode: Stage (2/3) "Part 2"')
    assert retry["progress"]["completedStages"] == 1
    assert retry["progress"]["currentStage"] == {"id": "stage-02", "title": "Part 2"}
    # Stage 2 is still judged on its own work.
    out = finish(user, saga_id, stage_id="stage-02")
    assert (out["nextAction"], out["reason"]) == (
        "revision_queued",
        "fix-attempt 1: file not found: part2.md",
    )
    assert Saga.objects.get(key=saga_id).state["recoveryAttempts"] == {"stage-02": 1}


def test_repeated_final_worker_finished_returns_the_completion(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    first = finish(user, saga_id, "part1.md", stage_id="stage-01")
    assert (first["nextAction"], first["reason"]) == ("terminated", "completed")
    retry = finish_again(user, saga_id, "part1.md", stage_id="stage-01")
    assert {k: v for k, v in retry.items() if k != "progress"} == {
        "nextAction": "terminated",
        "reason": "completed",
        "details": "All 1 stages passed",
        "alreadyRecorded": True,
        "notice": "workerFinished for stage-01 was already recorded; nothing was changed.",
    }


def test_repeated_deep_stage_finish_after_the_verdict_changes_nothing(user):
    saga_id, _ = started(user, profile="research", plan=simple_plan(2, "deep"))
    out = finish(user, saga_id, "part1.md", stage_id="stage-01")
    assert out["nextAction"] == "eval_deep_required"
    services.saga_advance(user=user, saga_id=saga_id, eval_result={"passed": True, "score": 4})
    retry = finish_again(user, saga_id, "part1.md", stage_id="stage-01")
    assert (retry["nextAction"], retry["alreadyRecorded"]) == ("continue_worker_now", True)


def test_worker_finished_for_the_current_stage_runs_the_checks(user):
    saga_id, _ = started(user, plan=simple_plan(2))
    out = finish(user, saga_id, "part1.md", stage_id="stage-01")
    assert (out["nextAction"], out["stageId"]) == ("worker_mode_queued", "stage-02")
    assert "alreadyRecorded" not in out


@pytest.mark.parametrize(
    ("stage_id", "error", "message"),
    [
        ("stage-09", InvalidInput, "stageId 'stage-09' is not a stage of this saga."),
        ("stage-02", SagaStateConflict, "Stage stage-02 has not started; the current stage is "),
        ("  ", InvalidInput, "stageId must be a non-empty string."),
    ],
)
def test_worker_finished_for_another_stage_is_refused_without_change(
    user, stage_id, error, message
):
    saga_id, _ = started(user, plan=simple_plan(2))
    before = snapshot(saga_id)
    with pytest.raises(error) as caught:
        finish(user, saga_id, "part1.md", stage_id=stage_id)
    assert caught.value.message.startswith(message)
    assert snapshot(saga_id) == before


def test_repeated_worker_finished_without_stage_id_after_a_pass_changes_nothing(user):
    saga_id, _ = started(user, plan=simple_plan(3))
    first = finish(user, saga_id, "part1.md", content="one")
    assert (first["nextAction"], first["stageId"]) == ("worker_mode_queued", "stage-02")
    # The response was lost; the client repeats the call, which names no stage.
    retry = finish_again(user, saga_id, "part1.md", content="one")
    assert {k: v for k, v in retry.items() if k not in ("progress", "workerContext")} == {
        "nextAction": "continue_worker_now",
        "reason": "Worker mode active for stage stage-02",
        "alreadyRecorded": True,
        "notice": "This workerFinished was already recorded; nothing was changed.",
    }
    assert Saga.objects.get(key=saga_id).state["recoveryAttempts"] == {}
    # Stage 2's own work is judged as usual.
    out = finish(user, saga_id, "part2.md", content="two")
    assert (out["nextAction"], out["stageId"]) == ("worker_mode_queued", "stage-03")


def test_mcp_saga_advance_declares_and_passes_stage_id(monkeypatch):
    calls = []

    def fake_advance(**kwargs):
        calls.append(kwargs)
        return {"nextAction": "continue_worker_now", "reason": "r"}

    monkeypatch.setattr(services, "saga_advance", fake_advance)
    server = mcp_server.build_server(fixed_user="u")
    tools = {t.name: t for t in asyncio.run(server.list_tools())}
    assert tools["saga_advance"].input_schema["properties"]["stageId"]["anyOf"] == [
        {"type": "string"},
        {"type": "null"},
    ]
    assert (
        "alreadyRecorded"
        in tools["saga_advance"].input_schema["properties"]["stageId"]["description"]
    )
    assert "requestId" in tools["saga_start"].input_schema["properties"]
    asyncio.run(
        server.call_tool("saga_advance", {"sagaId": "s", "workerFinished": True, "stageId": "x"})
    )
    assert calls[0]["stage_id"] == "x" and calls[0]["worker_finished"] is True


# --- saga_start with requestId --------------------------------------------------------------


def test_repeated_start_with_request_id_returns_the_same_saga(user):
    first = services.saga_start(
        user=user, goal="Write a report", profile="curation", request_id="r-1"
    )
    assert first["status"] == "plan_required"
    before = snapshot(first["sagaId"])
    retry = services.saga_start(
        user=user, goal="Write a report", profile="curation", request_id="r-1"
    )
    assert Saga.objects.filter(owner=user).count() == 1
    assert snapshot(first["sagaId"]) == before
    assert AuditEvent.objects.filter(action="saga.started").count() == 1
    assert retry == {
        **first,
        "alreadyRecorded": True,
        "notice": f"This requestId already started saga {first['sagaId']}; nothing was changed.",
    }
    assert retry["planPrompt"] == services.plan_prompt(profile=get_profile("curation"))


def test_repeated_start_during_clarification_repeats_the_questions(user):
    first = services.saga_start(
        user=user, goal="[clarify] trip", profile="research", request_id="a"
    )
    retry = services.saga_start(
        user=user, goal="[clarify] trip", profile="research", request_id="a"
    )
    assert first["nextAction"] == "clarification_needed"
    assert {k: v for k, v in retry.items() if k not in ("alreadyRecorded", "notice")} == first
    assert retry["alreadyRecorded"] is True


def test_request_id_with_another_goal_is_a_conflict(user):
    first = services.saga_start(user=user, goal="one", profile="generic", request_id="r-1")
    with pytest.raises(SagaStateConflict) as caught:
        services.saga_start(user=user, goal="two", profile="generic", request_id="r-1")
    assert caught.value.message == (
        f"requestId 'r-1' was already used for saga {first['sagaId']} with another goal or profile."
    )
    assert Saga.objects.filter(owner=user).count() == 1


def test_request_id_is_per_user_and_optional(user, other_user):
    a = services.saga_start(user=user, goal="g", profile="generic", request_id="same")
    b = services.saga_start(user=other_user, goal="g", profile="generic", request_id="same")
    assert a["sagaId"] != b["sagaId"]
    services.saga_start(user=user, goal="g", profile="generic")
    services.saga_start(user=user, goal="g", profile="generic")
    assert Saga.objects.filter(owner=user).count() == 3
    assert list(
        Saga.objects.filter(owner=user).order_by("request_id").values_list("request_id", flat=True)
    ) == ["", "", "same"]


def test_request_id_uniqueness_is_a_database_constraint(user):
    services.saga_start(user=user, goal="g", profile="generic", request_id="r-1")
    row = Saga.objects.get(owner=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Saga.objects.create(
            key="saga-1-dup",
            owner=user,
            profile="generic",
            goal="g",
            status="planning",
            state=row.state,
            request_id="r-1",
        )


@pytest.mark.parametrize(
    ("request_id", "message"),
    [("", "requestId must be a non-empty string."), ("x" * 101, "requestId is longer than 100")],
)
def test_bad_request_id_is_rejected(user, request_id, message):
    with pytest.raises(InvalidInput, match=message):
        services.saga_start(user=user, goal="g", profile="generic", request_id=request_id)
    assert Saga.objects.count() == 0
