"""Coordinator behavior through the services, one behavior per test (spec §2, §5, §8)."""

import pytest

from apps.core.models import AuditEvent
from apps.saga import services
from apps.saga.errors import (
    InvalidArtifact,
    InvalidInput,
    InvalidPlan,
    InvalidVerdict,
    SagaNotFound,
    SagaStateConflict,
    SagaTerminated,
    UnknownProfile,
)
from apps.saga.models import OpsMemoryEntry, Saga, SagaArtifact, SagaDiagnostics, SagaEvent
from apps.saga.profiles import get_profile
from apps.saga.selectors import saga_status
from tests.saga import scripted
from tests.saga.conftest import finish, plan_md, simple_plan, snapshot, stage_md, started

pytestmark = pytest.mark.django_db


def events(saga_id):
    return list(
        SagaEvent.objects.filter(saga__key=saga_id)
        .order_by("sequence")
        .values_list("type", flat=True)
    )


def test_start_without_plan_returns_plan_required_with_prompt(user):
    out = services.saga_start(user=user, goal="Write a report", profile="curation")
    assert out["status"] == "plan_required"
    assert out["nextAction"] == "await_human"
    assert "planYaml" in out["message"]
    assert "curation plan with 2-4 stages" in out["planPrompt"]
    assert "## Stage 1:" in out["planPrompt"]
    assert out["progress"]["display"] == "📋 Saga 进度: 0/0 阶段完成"
    assert events(out["sagaId"]) == ["saga_created", "plan_requested"]
    assert AuditEvent.objects.filter(action="saga.started", subject_id=out["sagaId"]).count() == 1


def test_planner_stages_queue_first_worker(user):
    saga_id, out = started(user, goal="[planned] notes then report")
    assert out["status"] == "started"
    assert out["nextAction"] == "worker_mode_queued"
    assert out["stageId"] == "stage-01"
    state = Saga.objects.get(key=saga_id).state
    assert [s["title"] for s in state["stages"]] == ["Collect", "Write"]
    assert state["stages"][0]["goal"] == "collect notes"
    assert state["stages"][0]["doneCriteria"] == [{"kind": "file-exists", "path": "notes.md"}]
    assert state["stages"][1]["doneCriteria"] == [
        {"kind": "file-size-gt", "path": "report.md", "minBytes": 8}
    ]
    assert state["cursor"] == 0
    assert state["transition"] == {"kind": "worker_mode_injected", "stageId": "stage-01"}
    assert events(saga_id) == ["saga_created", "plan_produced", "worker_mode_queued"]


def test_three_stage_auto_run_completes(user):
    saga_id, out = started(user, plan=simple_plan(3))
    assert out["nextAction"] == "worker_mode_queued"
    assert out["workerContext"].startswith('## Worker Mode: Stage (1/3) "Part 1"')
    assert "- part1.md" in out["workerContext"]
    out = finish(user, saga_id, "part1.md")
    assert out["nextAction"] == "worker_mode_queued" and out["stageId"] == "stage-02"
    out = finish(user, saga_id, "part2.md")
    out = finish(user, saga_id, "part3.md")
    assert out == {
        "nextAction": "terminated",
        "reason": "completed",
        "details": "All 3 stages passed",
        "progress": out["progress"],
    }
    assert out["progress"]["display"].splitlines() == [
        "📋 Saga 进度: 3/3 阶段完成",
        "✅ Stage 1: Part 1 — 已完成",
        "✅ Stage 2: Part 2 — 已完成",
        "✅ Stage 3: Part 3 — 已完成",
    ]
    ev = events(saga_id)
    assert ev.count("eval_completed") == 3
    assert ev.count("stage_advanced") == 2
    assert ev[-1] == "saga_terminated"
    saga = Saga.objects.get(key=saga_id)
    assert saga.state["cursor"] == 3
    assert saga.status == Saga.Status.COMPLETED


def test_missing_artifact_gives_fix_attempt(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    out = finish(user, saga_id)
    assert out["nextAction"] == "revision_queued"
    assert out["reason"] == "fix-attempt 1: file not found: part1.md"
    assert "Previous attempt failed. Fix these issues:" in out["workerContext"]
    # Site 3: asking again without finishing repeats the retry, with no state change.
    before = snapshot(saga_id)
    again = services.saga_advance(user=user, saga_id=saga_id)
    assert again["nextAction"] == "revision_queued"
    assert again["reason"] == "Retry attempt 1 — previous output did not meet criteria"
    assert snapshot(saga_id) == before


def test_five_failures_walk_every_recovery_layer(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    actions = [finish(user, saga_id)["nextAction"] for _ in range(4)]
    assert actions == [
        "revision_queued",
        "revision_queued",
        "revision_queued",
        "worker_mode_queued",
    ]
    state = Saga.objects.get(key=saga_id).state
    assert state["transition"]["kind"] == "rework_full"
    assert state["recoveryAttempts"] == {"stage-01": 4}
    last = finish(user, saga_id)
    assert last["nextAction"] == "terminated"
    assert last["reason"] == "worker_unrecoverable"
    assert last["details"] == "All 4 recovery layers exhausted: file not found: part1.md"
    methods = list(
        SagaEvent.objects.filter(saga__key=saga_id, type="recovery_attempt")
        .order_by("sequence")
        .values_list("payload__method", "payload__attempt")
    )
    assert methods == [
        ("fix-attempt", 1),
        ("fix-attempt", 2),
        ("microcompact-retry", 3),
        ("full-rework", 4),
        ("terminal", 4),
    ]
    # A full rework re-injects the worker without a worker_mode_queued event.
    assert events(saga_id).count("worker_mode_queued") == 1


def test_microcompact_gives_worker_only_a_short_summary(user):
    long_path = "p" * 200 + ".md"
    plan = plan_md(
        stage_md(
            1,
            "Long",
            "g",
            [f"kind: file-exists\n    path: {long_path}", "kind: file-exists\n    path: other.md"],
        )
    )
    saga_id, _ = started(user, plan=plan)
    finish(user, saga_id)
    finish(user, saga_id)
    out = finish(user, saga_id)
    prefix = "microcompact-retry: clearing old eval context, re-entering worker mode. Issues: "
    assert out["reason"].startswith(prefix)
    summary = out["reason"][len(prefix) :]
    assert len(summary) == 200 and summary.endswith("...")
    requeued = services.saga_advance(user=user, saga_id=saga_id)
    assert requeued["nextAction"] == "worker_mode_queued"
    assert summary in requeued["workerContext"]


def test_terminated_saga_stays_terminated_without_writes(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    finish(user, saga_id, "part1.md")
    before = snapshot(saga_id)
    out = services.saga_advance(user=user, saga_id=saga_id, worker_finished=True)
    assert out["nextAction"] == "terminated" and out["reason"] == "completed"
    assert snapshot(saga_id) == before
    with pytest.raises(SagaTerminated):
        services.saga_advance(user=user, saga_id=saga_id, plan_yaml=simple_plan(1))
    assert snapshot(saga_id) == before


def test_continue_worker_now_when_worker_active(user):
    saga_id, _ = started(user, plan=simple_plan(2))
    out = services.saga_advance(user=user, saga_id=saga_id)
    assert out["nextAction"] == "continue_worker_now"
    assert out["reason"] == "Worker mode active for stage stage-01"


def test_deep_stage_requires_eval_and_completes(user):
    saga_id, _ = started(user, profile="research", goal="[x] deep", plan=simple_plan(2, "deep"))
    out = finish(user, saga_id, "part1.md", content="ARTIFACT-TEXT-42")
    assert out["nextAction"] == "eval_deep_required"
    assert out["stageId"] == "stage-01"
    assert "evaluator" in out["evalPrompt"] and "checklist" in out["evalPrompt"]
    assert "stage-01" in out["evalPrompt"] and "ARTIFACT-TEXT-42" in out["evalPrompt"]
    assert Saga.objects.get(key=saga_id).state["transition"] == {
        "kind": "eval_deep_pending",
        "stageId": "stage-01",
    }
    # D4: asking again re-issues the evaluation request, with no new event.
    count = SagaEvent.objects.filter(saga__key=saga_id).count()
    again = services.saga_advance(user=user, saga_id=saga_id)
    assert again["nextAction"] == "eval_deep_required"
    assert SagaEvent.objects.filter(saga__key=saga_id).count() == count
    out = services.saga_advance(
        user=user, saga_id=saga_id, eval_result={"passed": True, "score": 4.5, "issues": []}
    )
    assert out["nextAction"] == "worker_mode_queued" and out["stageId"] == "stage-02"
    finish(user, saga_id, "part2.md")
    out = services.saga_advance(
        user=user, saga_id=saga_id, eval_result={"passed": True, "score": "n/a", "issues": []}
    )
    assert out["reason"] == "completed"
    ev = events(saga_id)
    assert ev.count("deep_eval_completed") == 2
    assert ev.count("eval_completed") == 2
    scores = list(
        SagaEvent.objects.filter(saga__key=saga_id, type="eval_completed")
        .order_by("sequence")
        .values_list("payload__score", flat=True)
    )
    assert scores == [4.5, None]


def test_deep_fail_gives_fix_attempt_with_issues(user):
    saga_id, _ = started(user, profile="review", plan=simple_plan(1, "deep"))
    finish(user, saga_id, "part1.md")
    out = services.saga_advance(
        user=user,
        saga_id=saga_id,
        eval_result={
            "passed": False,
            "score": 2,
            "issues": ["H1 fails: no locations"],
            "escalate": False,
        },
    )
    assert out["nextAction"] == "revision_queued"
    assert out["reason"] == "fix-attempt 1: H1 fails: no locations"


def test_repeated_deep_fails_end_unrecoverable(user):
    saga_id, _ = started(user, profile="review", plan=simple_plan(1, "deep"))
    verdict = {"passed": False, "score": 1, "issues": ["still shallow"]}
    actions = []
    for _ in range(5):
        out = finish(user, saga_id, "part1.md")
        if out["nextAction"] == "eval_deep_required":
            out = services.saga_advance(user=user, saga_id=saga_id, eval_result=verdict)
        actions.append(out["nextAction"])
    assert actions == [
        "revision_queued",
        "revision_queued",
        "revision_queued",
        "worker_mode_queued",
        "terminated",
    ]
    assert Saga.objects.get(key=saga_id).state["termination"]["reason"] == "worker_unrecoverable"


def test_escalation_waits_for_human_then_resumes(user):
    saga_id, _ = started(user, profile="review", plan=simple_plan(1, "deep"))
    finish(user, saga_id, "part1.md")
    out = services.saga_advance(
        user=user,
        saga_id=saga_id,
        eval_result={
            "passed": False,
            "score": None,
            "issues": ["artifact behind login"],
            "escalate": True,
        },
    )
    assert out["nextAction"] == "await_human"
    assert "验收标准无法达成" in out["diagnostic"] and "saga_cancel" in out["diagnostic"]
    assert "Deep eval: criteria unachievable — artifact behind login" in out["diagnostic"]
    assert "recovery_attempt" not in events(saga_id)
    held = services.saga_advance(user=user, saga_id=saga_id)
    assert held == {
        "nextAction": "await_human",
        "diagnostic": "Deep eval: criteria unachievable — artifact behind login",
        "progress": held["progress"],
    }
    # D16: finishing work while a human decision is pending is refused, with no change.
    before = snapshot(saga_id)
    with pytest.raises(SagaStateConflict):
        finish(user, saga_id, "part1.md")
    assert snapshot(saga_id) == before
    out = services.saga_advance(user=user, saga_id=saga_id, human_input="Use the public copy.")
    assert out["nextAction"] == "worker_mode_queued"
    assert "Guidance from the human:\n- Use the public copy." in out["workerContext"]
    assert events(saga_id)[-2:] == ["human_input_received", "worker_mode_queued"]


def _escalate_then_guide(user, saga_id, text):
    finish(user, saga_id, "part1.md")
    verdict = {"passed": False, "score": None, "issues": ["impossible"], "escalate": True}
    out = services.saga_advance(user=user, saga_id=saga_id, eval_result=verdict)
    assert out["nextAction"] == "await_human"
    return services.saga_advance(user=user, saga_id=saga_id, human_input=text)


def _guidance_section(context):
    start = context.index("Guidance from the human:")
    return context[start : context.index("\n\nAnnounce that you are starting")]


def test_repeated_escalations_keep_only_the_latest_guidance_within_the_cap(user):
    saga_id, _ = started(user, profile="review", plan=simple_plan(1, "deep"))
    a, b, c = "A" * 8_000, "B" * 8_000, "C" * 8_000
    _escalate_then_guide(user, saga_id, a)
    out = _escalate_then_guide(user, saga_id, b)
    assert _guidance_section(out["workerContext"]) == f"Guidance from the human:\n- {a}\n- {b}"
    out = _escalate_then_guide(user, saga_id, c)
    # 24,000 characters of guidance exceed the 20,000 kept: the oldest message goes.
    assert _guidance_section(out["workerContext"]) == (
        "Guidance from the human:\n"
        "(1 earlier message from the human omitted; the latest follow.)\n"
        f"- {b}\n- {c}"
    )
    state = Saga.objects.get(key=saga_id).state
    assert state["humanGuidance"] == [
        {"stageId": "stage-01", "text": b},
        {"stageId": "stage-01", "text": c},
    ]
    assert state["humanGuidanceOmitted"] == {"stage-01": 1}
    d = "D" * 20_000
    out = _escalate_then_guide(user, saga_id, d)
    assert _guidance_section(out["workerContext"]) == (
        "Guidance from the human:\n"
        "(3 earlier messages from the human omitted; the latest follow.)\n"
        f"- {d}"
    )
    saga = Saga.objects.get(key=saga_id)
    assert saga.state["humanGuidance"] == [{"stageId": "stage-01", "text": d}]
    # Events keep every message; replay trims the same way.
    assert events(saga_id).count("human_input_received") == 4
    assert services.saga_replay(saga=saga)["differences"] == []


def test_escalation_without_issues_uses_default_reason(user):
    saga_id, _ = started(user, profile="review", plan=simple_plan(1, "deep"))
    finish(user, saga_id, "part1.md")
    out = services.saga_advance(
        user=user, saga_id=saga_id, eval_result={"passed": False, "escalate": True}
    )
    assert "Deep eval: criteria cannot be met with available information" in out["diagnostic"]


def test_auto_evaluator_model_limit_terminates(user):
    saga_id, _ = started(user, plan=simple_plan(1, goal_marker=" [model-limit]"))
    out = finish(user, saga_id, "part1.md")
    assert (out["reason"], out["details"]) == (
        "model_capability_exceeded",
        "input too long for the context",
    )


def test_auto_evaluator_fail_runs_recovery(user):
    saga_id, _ = started(user, plan=simple_plan(1, goal_marker=" [auto-fail]"))
    out = finish(user, saga_id, "part1.md")
    assert out["reason"] == "fix-attempt 1: auto evaluator: weak output"


def test_source_unavailable_from_diagnostics_terminates(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    out = finish(user, saga_id, worker_diagnostics={"errorsCaught": ["GET https://x: 403"]})
    assert out["reason"] == "source_unavailable"
    assert out["details"] == "Source unavailable (403): GET https://x: 403"
    assert SagaDiagnostics.objects.get(saga__key=saga_id).attempt == 1


def test_size_text_alone_is_not_source_unavailable(user):
    # D3: "403 bytes" in a check detail must not be read as an HTTP 403.
    plan = plan_md(
        stage_md(1, "S", "g", ["kind: file-size-gt\n    path: forbidden.md\n    minBytes: 1000"])
    )
    saga_id, _ = started(user, plan=plan)
    out = finish(user, saga_id, "forbidden.md", content="x" * 403)
    assert out["nextAction"] == "revision_queued"
    assert out["reason"] == (
        "fix-attempt 1: file forbidden.md is 403 bytes, expected ~1000 (tolerance: >= 750)"
    )


def test_information_unavailable_routes_to_human(user):
    plan = plan_md(stage_md(1, "S", "g", ["kind: file-size-gt\n    path: r.md\n    minBytes: 100"]))
    saga_id, _ = started(user, profile="research", plan=plan)
    diag = {
        "searchedTerms": ["zeta", "eta"],
        "urlsAttempted": [{"url": "https://a", "status": 404}, {"url": "b", "status": "empty"}],
    }
    out = finish(user, saga_id, "r.md", content="short", worker_diagnostics=diag)
    assert out["nextAction"] == "await_human"
    assert "Searched: zeta, eta." in out["diagnostic"]
    assert Saga.objects.get(key=saga_id).state["transition"]["kind"] == "awaiting_human"
    assert "recovery_attempt" not in events(saga_id)
    out = services.saga_advance(user=user, saga_id=saga_id, human_input="Try the 2019 survey.")
    assert out["nextAction"] == "worker_mode_queued"


def test_network_errors_use_the_normal_cascade(user):
    plan = plan_md(stage_md(1, "S", "g", ["kind: file-size-gt\n    path: r.md\n    minBytes: 100"]))
    saga_id, _ = started(user, plan=plan)
    diag = {"errorsCaught": ["read timeout"], "urlsAttempted": [{"url": "a", "status": 500}]}
    out = finish(user, saga_id, "r.md", content="short", worker_diagnostics=diag)
    assert out["nextAction"] == "revision_queued"


def test_cancel_terminates_and_logs(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    out = services.saga_cancel(user=user, saga_id=saga_id, reason="changed my mind")
    assert out == {"sagaId": saga_id, "status": "cancelled", "reason": "changed my mind"}
    state = Saga.objects.get(key=saga_id).state
    assert state["termination"]["reason"] == "aborted_by_user"
    assert events(saga_id)[-1] == "saga_terminated"
    with pytest.raises(SagaTerminated, match=f"Saga {saga_id} already terminated: aborted_by_user"):
        services.saga_cancel(user=user, saga_id=saga_id)


def test_cancel_default_reason(user):
    saga_id, _ = started(user)
    assert services.saga_cancel(user=user, saga_id=saga_id)["reason"] == "Cancelled by user"


def test_status_fields(user):
    saga_id, _ = started(user, plan=simple_plan(2))
    finish(user, saga_id)
    status = saga_status(user=user, saga_id=saga_id)
    assert {k: v for k, v in status.items() if k != "progress"} == {
        "sagaId": saga_id,
        "profile": "generic",
        "goal": "Write a report",
        "cursor": 0,
        "totalStages": 2,
        "currentStage": "stage-01",
        "transition": "eval_needs_fix_attempt",
        "termination": None,
        "recoveryAttempts": {"stage-01": 1},
    }


# --- clarification -------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["ops", "research"])
def test_profiles_open_clarification(user, profile):
    out = services.saga_start(user=user, goal="[profile-questions] help", profile=profile)
    assert out["status"] == "started"
    assert out["nextAction"] == "clarification_needed"
    assert (out["round"], out["limit"]) == (0, 2)
    assert len(out["questions"]) == 2
    state = Saga.objects.get(key=out["sagaId"]).state
    assert state["transition"]["kind"] == "clarifying_requirements"


def test_stop_word_ends_clarification_early(user):
    out = services.saga_start(user=user, goal="[profile-questions] wifi", profile="ops")
    nxt = services.saga_advance(user=user, saga_id=out["sagaId"], human_input="够了")
    assert nxt["nextAction"] == "await_human" and "planYaml" in nxt["diagnostic"]
    state = Saga.objects.get(key=out["sagaId"]).state
    assert len(state["clarificationHistory"]) == 1
    assert state["transition"] == {"kind": "awaiting_plan_yaml"}


def test_answers_accumulate_and_enrich_planner_goal(user):
    scripted.PLANNER_GOALS.clear()
    out = services.saga_start(user=user, goal="[clarify] survey", profile="research")
    assert out["questions"] == ["Question 1?"]
    second = services.saga_advance(user=user, saga_id=out["sagaId"], human_input="first")
    assert (second["nextAction"], second["questions"], second["round"]) == (
        "clarification_needed",
        ["Question 2?"],
        1,
    )
    repeat = services.saga_advance(user=user, saga_id=out["sagaId"])
    assert (repeat["questions"], repeat["round"]) == (["Question 2?"], 1)
    services.saga_advance(user=user, saga_id=out["sagaId"], human_input="second")
    state = Saga.objects.get(key=out["sagaId"]).state
    assert state["clarificationHistory"] == [
        {"question": "Question 1?", "answer": "first"},
        {"question": "Question 2?", "answer": "second"},
    ]
    assert scripted.PLANNER_GOALS[-1] == (
        "[clarify] survey\n\nClarifications:\nQ: Question 1?\nA: first\n\nQ: Question 2?\nA: second"
    )


def test_skipping_clarifier_goes_straight_to_planner(user):
    out = services.saga_start(user=user, goal="no questions", profile="ops")
    assert out["status"] == "plan_required"
    assert Saga.objects.get(key=out["sagaId"]).state["clarificationHistory"] == []


def test_human_input_while_awaiting_plan_is_rejected(user):
    saga_id, _ = started(user)
    before = snapshot(saga_id)
    with pytest.raises(InvalidInput, match="waiting for a plan"):
        services.saga_advance(user=user, saga_id=saga_id, human_input="hello")
    assert snapshot(saga_id) == before


def test_plan_rejecting_planner_terminates(user):
    out = services.saga_start(user=user, goal="[reject-plan] x", profile="generic")
    assert out["nextAction"] == "terminated"
    assert out["reason"] == "plan_rejected"


def test_crashing_planner_falls_back_to_agent_plan(user):
    out = services.saga_start(user=user, goal="[planner-crash] x", profile="generic")
    assert out["status"] == "plan_required"


# --- bad input: clear error, nothing changes ------------------------------------------------


def test_unknown_profile(user):
    with pytest.raises(UnknownProfile, match="Unknown profile 'poetry'"):
        services.saga_start(user=user, goal="x", profile="poetry")
    assert Saga.objects.count() == 0


def test_foreign_and_unknown_saga_are_not_found(user, other_user):
    saga_id, _ = started(user, plan=simple_plan(1))
    before = snapshot(saga_id)
    for uid, sid in ((other_user, saga_id), (user, "saga-1-nope")):
        with pytest.raises(SagaNotFound, match=f"Saga {sid} was not found"):
            services.saga_advance(user=uid, saga_id=sid, worker_finished=True)
        with pytest.raises(SagaNotFound):
            saga_status(user=uid, saga_id=sid)
        with pytest.raises(SagaNotFound):
            services.saga_cancel(user=uid, saga_id=sid)
    assert snapshot(saga_id) == before


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        ("just words", "zero stages"),
        (
            plan_md(stage_md(1, "A", "g", ["kind: command\n    cmd: ls"])),
            "stage-01: kind 'command' is not executed on this platform",
        ),
        (
            plan_md(stage_md(1, "A", "g", ["kind: telepathy"])),
            "stage-01: kind 'telepathy' is unknown",
        ),
        (
            plan_md(stage_md(1, "A", "g", ["kind: file-schema\n    path: a.json\n    schema: {}"])),
            "stage-01: kind 'file-schema' is not allowed for profile review",
        ),
        (
            plan_md(stage_md(1, "A", "g", ["kind: file-exists"])),
            "stage-01: done.path is required for file-exists",
        ),
        (
            plan_md(stage_md(1, "A", "g", ["kind: file-exists\n    path: ../x"])),
            "stage-01: path '../x' must be relative without '..'",
        ),
    ],
)
def test_malformed_plans_are_rejected_without_change(user, plan, message):
    saga_id, _ = started(user, profile="review")
    before = snapshot(saga_id)
    with pytest.raises(InvalidPlan, match=message):
        services.saga_advance(user=user, saga_id=saga_id, plan_yaml=plan)
    assert snapshot(saga_id) == before


def test_second_plan_is_refused(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    before = snapshot(saga_id)
    with pytest.raises(SagaStateConflict, match="already accepted"):
        services.saga_advance(user=user, saga_id=saga_id, plan_yaml=simple_plan(2))
    assert snapshot(saga_id) == before


@pytest.mark.parametrize(
    ("artifacts", "message"),
    [
        ([{"path": "/etc/passwd", "content": "x"}], "must be relative"),
        ([{"path": "a/../../b", "content": "x"}], "must not contain '..'"),
        ([{"path": "big.md", "content": "é" * 600_000}], "1200000 bytes; the limit is 1048576"),
        ([{"path": "a.md", "content": 5}], "content must be a string"),
        ("not-a-list", "must be a list"),
    ],
)
def test_bad_artifacts_are_rejected_without_change(user, artifacts, message):
    saga_id, _ = started(user, plan=simple_plan(1))
    before = snapshot(saga_id)
    with pytest.raises(InvalidArtifact, match=message):
        services.saga_advance(user=user, saga_id=saga_id, worker_finished=True, artifacts=artifacts)
    assert snapshot(saga_id) == before


def test_empty_artifact_content_is_kept(user):
    # D12: an empty file is still a file.
    saga_id, _ = started(user, plan=simple_plan(1))
    out = finish(user, saga_id, "part1.md", content="")
    assert out["reason"] == "completed"
    assert SagaArtifact.objects.get(saga__key=saga_id, path="part1.md").size == 0


@pytest.mark.parametrize(
    ("verdict", "message"),
    [
        ("yes", "evalResult must be an object"),
        ({"score": 3}, "evalResult.passed must be true or false"),
        ({"passed": "true"}, "evalResult.passed must be true or false"),
        ({"passed": False, "issues": "bad"}, "evalResult.issues must be a list"),
        ({"passed": False, "escalate": "no"}, "evalResult.escalate must be true or false"),
    ],
)
def test_malformed_verdicts_are_rejected_without_change(user, verdict, message):
    saga_id, _ = started(user, profile="research", plan=simple_plan(1, "deep"))
    finish(user, saga_id, "part1.md")
    before = snapshot(saga_id)
    with pytest.raises(InvalidVerdict, match=message):
        services.saga_advance(user=user, saga_id=saga_id, eval_result=verdict)
    assert snapshot(saga_id) == before


def test_eval_result_outside_deep_pending_is_ignored(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    out = services.saga_advance(user=user, saga_id=saga_id, eval_result={"passed": True})
    assert out["nextAction"] == "continue_worker_now"


def test_worker_finished_beats_eval_result(user):
    saga_id, _ = started(user, profile="research", plan=simple_plan(2, "deep"))
    finish(user, saga_id, "part1.md")
    out = finish(user, saga_id, "part1.md", eval_result={"passed": True})
    assert out["nextAction"] == "eval_deep_required"
    assert Saga.objects.get(key=saga_id).state["cursor"] == 0


def test_artifacts_overwrite_by_path(user):
    saga_id, _ = started(user, plan=simple_plan(2))
    finish(user, saga_id, "part1.md", content="one")
    finish(user, saga_id, "part1.md", content="two")
    assert SagaArtifact.objects.get(saga__key=saga_id, path="part1.md").content == "two"


def test_ops_completion_appends_memory(user, django_capture_on_commit_callbacks):
    plan = plan_md(
        stage_md(
            1, "Diagnose", "find cause", ["kind: file-exists\n    path: diagnosis.md"], "auto"
        ),
        stage_md(
            2,
            "Fix",
            "write runbook",
            [
                "kind: file-exists\n    path: out/diagnosis.md",
                "kind: file-exists\n    path: out/runbook.md",
            ],
            "auto",
        ),
    )
    saga_id, _ = started(user, profile="ops", goal="WiFi drops at 9pm", plan=plan)
    finish(user, saga_id, "diagnosis.md")
    diagnosis = "# Diagnosis\n\nDHCP lease expires at 21:00 on the router.\n\nMore detail."
    runbook = "# Runbook\nsudo nmcli con mod wifi ipv4.dhcp-timeout 600\nTo revert: reset it."
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.saga_advance(
            user=user,
            saga_id=saga_id,
            worker_finished=True,
            artifacts=[
                {"path": "out/diagnosis.md", "content": diagnosis},
                {"path": "out/runbook.md", "content": runbook},
            ],
        )
    assert len(callbacks) == 1
    entry = OpsMemoryEntry.objects.get(saga__key=saga_id)
    assert entry.owner == user
    assert entry.text.splitlines() == [
        f"## ops-saga {saga_id} — DHCP lease expires at 21:00 on the router.",
        "- Diagnosis: DHCP lease expires at 21:00 on the router.",
        "- Remediation: sudo nmcli con mod wifi ipv4.dhcp-timeout 600",
        "- Reverts: yes",
        "- Files: out/diagnosis.md, out/runbook.md",
    ]


def test_non_ops_completion_writes_no_memory(user, django_capture_on_commit_callbacks):
    saga_id, _ = started(user, plan=simple_plan(1))
    with django_capture_on_commit_callbacks(execute=True):
        finish(user, saga_id, "part1.md")
    assert OpsMemoryEntry.objects.count() == 0


# --- the plan format reaches the agent whichever call asks for a plan ----------------------

DEFAULT_ROLES = {
    "SAGASMITH_SAGA_CLARIFIER": "apps.saga.roles.profile_clarifier",
    "SAGASMITH_SAGA_PLANNER": "apps.saga.roles.agent_planner",
    "SAGASMITH_SAGA_EVALUATOR": "apps.saga.evaluator.hard_check_evaluator",
}


@pytest.mark.parametrize("profile", ["ops", "research", "curation", "review", "generic"])
def test_plan_prompt_follows_the_last_clarification_answer(user, settings, profile):
    for name, path in DEFAULT_ROLES.items():
        setattr(settings, name, path)
    out = services.saga_start(user=user, goal="Write a report", profile=profile)
    assert out["nextAction"] == "clarification_needed"
    assert "planPrompt" not in out
    saga_id = out["sagaId"]
    while out["nextAction"] == "clarification_needed":
        out = services.saga_advance(user=user, saga_id=saga_id, human_input="an answer")
    assert out["nextAction"] == "await_human"
    assert out["diagnostic"] == (
        'Generate a plan for the goal "Write a report" and submit it with '
        "saga_advance(sagaId, planYaml=...)."
    )
    assert out["planPrompt"] == services.plan_prompt(profile=get_profile(profile))
    assert f"Write a {profile} plan with" in out["planPrompt"]


def test_plan_prompt_follows_a_stop_word(user):
    out = services.saga_start(user=user, goal="[profile-questions] wifi", profile="ops")
    nxt = services.saga_advance(user=user, saga_id=out["sagaId"], human_input="enough")
    assert nxt["planPrompt"] == services.plan_prompt(profile=get_profile("ops"))


def test_no_plan_prompt_once_a_plan_is_running(user):
    out = services.saga_start(user=user, goal="[clarify] survey", profile="research")
    nxt = services.saga_advance(user=user, saga_id=out["sagaId"], human_input="first")
    assert nxt["nextAction"] == "clarification_needed" and "planPrompt" not in nxt
    _, running = started(user, plan=simple_plan(1))
    assert "planPrompt" not in running


# --- recovery classifies only the diagnostics sent with this call ---------------------------


def test_old_diagnostics_do_not_hold_the_stage_at_a_human(user):
    plan = plan_md(stage_md(1, "S", "g", ["kind: file-size-gt\n    path: r.md\n    minBytes: 100"]))
    saga_id, _ = started(user, profile="research", plan=plan)
    diag = {"searchedTerms": ["zeta"], "urlsAttempted": [{"url": "https://a", "status": 404}]}
    out = finish(user, saga_id, "r.md", content="short", worker_diagnostics=diag)
    assert out["nextAction"] == "await_human"
    services.saga_advance(user=user, saga_id=saga_id, human_input="Try the 2019 survey.")
    # Diagnostics from the first attempt are stored but no longer decide the route.
    shortfall = "file r.md is 5 bytes, expected ~100 (tolerance: >= 75)"
    outcomes = [
        (o["nextAction"], o.get("reason"))
        for o in (finish(user, saga_id, "r.md", content="short") for _ in range(5))
    ]
    assert outcomes == [
        ("revision_queued", f"fix-attempt 1: {shortfall}"),
        ("revision_queued", f"fix-attempt 2: {shortfall}"),
        (
            "revision_queued",
            "microcompact-retry: clearing old eval context, re-entering worker mode. "
            f"Issues: {shortfall}",
        ),
        ("worker_mode_queued", None),
        ("terminated", "worker_unrecoverable"),
    ]
    assert SagaDiagnostics.objects.filter(saga__key=saga_id).count() == 1
    assert services.saga_replay(saga=Saga.objects.get(key=saga_id))["differences"] == []


def test_diagnostics_sent_again_still_route_to_a_human(user):
    plan = plan_md(stage_md(1, "S", "g", ["kind: file-size-gt\n    path: r.md\n    minBytes: 100"]))
    saga_id, _ = started(user, profile="research", plan=plan)
    diag = {"searchedTerms": ["zeta"], "urlsAttempted": [{"url": "https://a", "status": 404}]}
    finish(user, saga_id, "r.md", content="short", worker_diagnostics=diag)
    services.saga_advance(user=user, saga_id=saga_id, human_input="Try again.")
    out = finish(user, saga_id, "r.md", content="short", worker_diagnostics=diag)
    assert out["nextAction"] == "await_human"
    assert Saga.objects.get(key=saga_id).state["recoveryAttempts"] == {}


# --- a server-side planner's plan passes the same validation as planYaml -------------------


def test_invalid_planner_plan_falls_back_to_agent_plan(user):
    out = services.saga_start(user=user, goal="[planned-invalid] build", profile="generic")
    problems = [
        "stage-01: kind 'command' is not executed on this platform",
        "stage-02: done.path is required for file-exists",
    ]
    assert out["status"] == "plan_required"
    assert out["nextAction"] == "await_human"
    assert out["diagnostic"] == (
        "The planner's plan was rejected: " + "; ".join(problems) + ".\n"
        'Generate a plan for the goal "[planned-invalid] build" and submit it with '
        "saga_advance(sagaId, planYaml=...)."
    )
    assert out["planPrompt"] == services.plan_prompt(profile=get_profile("generic"))
    saga = Saga.objects.get(key=out["sagaId"])
    assert saga.state["plan"] is None and saga.state["stages"] == []
    assert saga.state["transition"] == {"kind": "awaiting_plan_yaml", "problems": problems}
    assert events(saga.key) == ["saga_created", "plan_requested"]
    assert services.saga_replay(saga=saga)["differences"] == []
    nxt = services.saga_advance(user=user, saga_id=saga.key, plan_yaml=simple_plan(1))
    assert (nxt["nextAction"], nxt["stageId"]) == ("worker_mode_queued", "stage-01")


def test_valid_planner_plan_is_still_applied(user):
    out = services.saga_start(user=user, goal="[planned] notes then report", profile="curation")
    assert (out["nextAction"], out["stageId"]) == ("worker_mode_queued", "stage-01")


# --- checks beyond file-exists reach the worker and the deep evaluator ----------------------


def test_progress_items_artifact_reaches_worker_and_deep_evaluator(user):
    plan = plan_md(
        stage_md(
            1,
            "Sources",
            "list sources",
            ["kind: progress-items\n    path: sources.md\n    minItems: 2"],
            "deep",
        ),
        stage_md(2, "Report", "r", ["kind: file-exists\n    path: r.md"], "deep"),
    )
    saga_id, out = started(user, profile="research", plan=plan)
    assert out["workerContext"].split("Required artifacts:\n")[1].splitlines()[0] == (
        "- sources.md (at least 2 items: list lines or a JSON list)"
    )
    out = finish(user, saga_id, "sources.md", content="- a\n- b\n- c\n")
    assert out["nextAction"] == "eval_deep_required"
    assert (
        "## Done criteria\n- kind: progress-items, path: sources.md, minItems: 2\n"
        in (out["evalPrompt"])
    )
    assert "## Output\n--- sources.md ---\n- a\n- b\n- c\n\n\n## Few-shot" in out["evalPrompt"]


def test_shipped_curation_example_names_its_schema_artifact(user):
    _, out = started(user, profile="curation", plan=get_profile("curation").planner_examples)
    assert out["workerContext"].split("Required artifacts:\n")[1].splitlines()[0] == (
        '- labels.json (JSON matching this JSON Schema: {"type":"array"})'
    )


def test_deep_eval_request_shows_a_cut_artifact_with_its_marker(user):
    saga_id, _ = started(user, profile="research", plan=simple_plan(1, "deep"))
    out = finish(user, saga_id, "part1.md", content="x" * 1_048_576)
    assert out["nextAction"] == "eval_deep_required"
    output = out["evalPrompt"].split("## Output\n")[1].split("\n\n## Few-shot calibration")[0]
    assert output == (
        "--- part1.md (truncated: first 20000 of 1048576 characters shown) ---\n"
        + "x" * 20_000
        + "\n[... 1028576 more characters of part1.md not shown ...]"
    )
    # The stored artifact itself is whole.
    assert len(SagaArtifact.objects.get(saga__key=saga_id, path="part1.md").content) == 1_048_576
