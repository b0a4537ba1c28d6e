"""The `advance()` coordinator: continue-sites in spec order, one plain `if` per site.

It works on an in-memory state document and records events on the context; the service layer
loads the row under a lock, calls `advance()`, and persists state and events in one transaction.
Event types beyond the spec's catalogue (clarification_requested, clarification_answered,
plan_requested, human_input_requested, human_input_received) exist so replay is exact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .checks import CheckResult, run_hard_checks
from .errors import InvalidPlan
from .evaluator import deep_eval_prompt
from .planparse import plan_validate, stage_from_object
from .profiles import Profile
from .recovery import (
    MAX_RECOVERY_ATTEMPTS,
    classify_root_cause,
    classify_runtime_error,
    classify_source_unavailable,
    issue_summary,
    layer_reason,
    matches_model_limit,
    microcompact,
    recovery_layer,
)
from .roles import role
from .state import current_stage, guidance_add, iso_ts, transition_kind

STOP_WORDS = ("够了", "不用问了", "skip", "enough", "no more")


@dataclass
class SagaContext:
    state: dict[str, Any]
    profile: Profile
    read: Callable[[str], str | None]
    ts: datetime
    # Diagnostics sent with this call's workerFinished; classifiers read only these, never a
    # row stored by an earlier attempt (a stale row would route the stage to a human forever).
    worker_diagnostics: dict[str, Any] | None = None
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    revision_reason: str | None = None
    # Artifacts written in this call, so checks need not read them back.
    known_artifacts: dict[str, str] = field(default_factory=dict)

    def emit(self, event_type: str, **payload: Any) -> None:
        self.events.append((event_type, payload))


def result(next_action: str, **payload: Any) -> dict[str, Any]:
    return {"nextAction": next_action, **payload}


def terminate(ctx: SagaContext, reason: str, details: str) -> dict[str, Any]:
    """Set the termination and always log it (D5)."""
    ctx.state["termination"] = {"reason": reason, "details": details, "ts": iso_ts(ctx.ts)}
    ctx.emit("saga_terminated", reason=reason, details=details)
    return result("terminated", reason=reason, details=details)


def queue_worker(ctx: SagaContext, stage: dict[str, Any]) -> dict[str, Any]:
    s = ctx.state
    s["modeRevision"] += 1
    s["transition"] = {"kind": "worker_mode_injected", "stageId": stage["id"]}
    ctx.emit("worker_mode_queued", stageId=stage["id"], modeRevision=s["modeRevision"])
    return result("worker_mode_queued", stageId=stage["id"])


def apply_plan(ctx: SagaContext, plan: dict[str, Any]) -> None:
    s = ctx.state
    s["plan"] = {"summary": plan["summary"], "stages": plan["stages"]}
    s["stages"] = [dict(stage) for stage in plan["stages"]]
    s["cursor"] = 0
    s["transition"] = None
    ctx.emit(
        "plan_produced",
        stageCount=len(plan["stages"]),
        stages=plan["stages"],
        summary=plan["summary"],
    )


def advance_after_pass(ctx: SagaContext, stage: dict[str, Any], score: Any) -> dict[str, Any]:
    s = ctx.state
    s["cursor"] += 1
    s["transition"] = {"kind": "eval_passed", "stageId": stage["id"]}
    ctx.emit("eval_completed", stageId=stage["id"], passed=True, score=score)
    if s["cursor"] >= len(s["stages"]):
        return terminate(ctx, "completed", f"All {len(s['stages'])} stages passed")
    nxt = s["stages"][s["cursor"]]
    outcome = queue_worker(ctx, nxt)
    ctx.emit("stage_advanced", fromStageId=stage["id"], toStageId=nxt["id"])
    return outcome


def await_human(ctx: SagaContext, reason: str, diagnostic: str) -> dict[str, Any]:
    stage = current_stage(ctx.state)
    ctx.state["transition"] = {"kind": "awaiting_human", "reason": reason}
    ctx.emit("human_input_requested", reason=reason, stageId=stage["id"] if stage else None)
    return result("await_human", diagnostic=diagnostic)


def recovery(
    ctx: SagaContext,
    stage: dict[str, Any],
    issues: list[str],
    *,
    checks: list[CheckResult],
    diagnostics: dict[str, Any] | None,
) -> dict[str, Any]:
    cause = classify_root_cause(checks=checks, diagnostics=diagnostics)
    if cause.strategy == "awaiting_human":
        return await_human(ctx, cause.message, cause.message)
    s = ctx.state
    sid = stage["id"]
    attempts = s["recoveryAttempts"].get(sid, 0)
    layer = recovery_layer(attempts)
    if layer.method == "terminal":
        ctx.emit(
            "recovery_attempt",
            stageId=sid,
            attempt=MAX_RECOVERY_ATTEMPTS,
            method="terminal",
            issues=issues,
        )
        return terminate(ctx, "worker_unrecoverable", layer_reason(layer, attempts, issues))
    attempt = attempts + 1
    s["recoveryAttempts"][sid] = attempt
    reason = layer_reason(layer, attempt, issues)
    if layer.method == "fix-attempt":
        s["transition"] = {
            "kind": "eval_needs_fix_attempt",
            "stageId": sid,
            "attempt": attempt,
            "issues": issues,
        }
        ctx.emit(
            "recovery_attempt", stageId=sid, attempt=attempt, method=layer.method, issues=issues
        )
        ctx.revision_reason = reason
        return result("revision_queued", stageId=sid, reason=reason)
    if layer.method == "microcompact-retry":
        # D10: the worker sees only the <= 200-character summary from here on.
        summary = microcompact({"issues": issues, "stageId": sid})["summary"]
        s["transition"] = {
            "kind": "microcompact_retry",
            "stageId": sid,
            "issues": issues,
            "summary": summary,
        }
        ctx.emit(
            "recovery_attempt",
            stageId=sid,
            attempt=attempt,
            method=layer.method,
            issues=issues,
            summary=summary,
        )
        ctx.revision_reason = reason
        return result("revision_queued", stageId=sid, reason=reason)
    # Full rework: re-inject the worker without a worker_mode_queued event (spec §2.3).
    s["modeRevision"] += 1
    s["transition"] = {"kind": "rework_full", "stageId": sid, "attempt": attempt, "issues": issues}
    ctx.emit(
        "recovery_attempt",
        stageId=sid,
        attempt=attempt,
        method=layer.method,
        issues=issues,
        modeRevision=s["modeRevision"],
    )
    ctx.revision_reason = reason
    return result("worker_mode_queued", stageId=sid)


def _clarify(ctx: SagaContext, round_: int) -> dict[str, Any]:
    s = ctx.state
    answer = role("SAGASMITH_SAGA_CLARIFIER")(
        goal=s["goal"], profile=ctx.profile, history=list(s["clarificationHistory"]), round=round_
    )
    questions = [str(q) for q in (answer.get("questions") or [])]
    return {"skip": bool(answer.get("skip")) or not questions, "questions": questions}


def site_clarification(ctx: SagaContext, human_input: str | None) -> dict[str, Any] | None:
    """Site 0. Returns a result, or None to fall through to the planner."""
    s = ctx.state
    limit = s["clarificationLimit"]
    clarifying = transition_kind(s) == "clarifying_requirements"
    if human_input:
        question = "\n".join(s["transition"]["questions"]) if clarifying else ""
        s["clarificationHistory"].append({"question": question, "answer": human_input})
        s["clarificationRound"] += 1
        s["transition"] = None
        ctx.emit(
            "clarification_answered",
            question=question,
            answer=human_input,
            round=s["clarificationRound"],
        )
        lowered = human_input.lower()
        if any(word in lowered for word in STOP_WORDS) or s["clarificationRound"] >= limit:
            return None
        asked = _clarify(ctx, s["clarificationRound"])
        if asked["skip"]:
            return None
        s["transition"] = {"kind": "clarifying_requirements", "questions": asked["questions"]}
        ctx.emit(
            "clarification_requested", questions=asked["questions"], round=s["clarificationRound"]
        )
        return result(
            "clarification_needed",
            questions=asked["questions"],
            round=s["clarificationRound"],
            limit=limit,
        )
    if not clarifying:
        asked = _clarify(ctx, s["clarificationRound"])
        if asked["skip"]:
            s["transition"] = None
            return None
        s["transition"] = {"kind": "clarifying_requirements", "questions": asked["questions"]}
        ctx.emit(
            "clarification_requested", questions=asked["questions"], round=s["clarificationRound"]
        )
        return result("clarification_needed", questions=asked["questions"], round=0, limit=limit)
    return result(
        "clarification_needed",
        questions=s["transition"]["questions"],
        round=s["clarificationRound"],
        limit=limit,
    )


def planner_goal(state: dict[str, Any]) -> str:
    history = state["clarificationHistory"]
    if not history:
        return state["goal"]
    blocks = "\n\n".join(f"Q: {h['question']}\nA: {h['answer']}" for h in history)
    return f"{state['goal']}\n\nClarifications:\n{blocks}"


def plan_diagnostic(goal: str, problems: list[str] | None = None) -> str:
    """The await_human text that asks the agent for planYaml (it must contain that token)."""
    ask = (
        f'Generate a plan for the goal "{goal}" and submit it with '
        "saga_advance(sagaId, planYaml=...)."
    )
    if not problems:
        return ask
    return "The planner's plan was rejected: " + "; ".join(problems) + ".\n" + ask


def await_plan(ctx: SagaContext, problems: list[str] | None = None) -> dict[str, Any]:
    s = ctx.state
    if problems:
        s["transition"] = {"kind": "awaiting_plan_yaml", "problems": problems}
        ctx.emit("plan_requested", problems=problems)
    else:
        s["transition"] = {"kind": "awaiting_plan_yaml"}
        ctx.emit("plan_requested")
    return result("await_human", diagnostic=plan_diagnostic(s["goal"], problems))


def site_plan(ctx: SagaContext) -> dict[str, Any]:
    """Site 1: run the planner; with no stages or an invalid plan, ask the agent for planYaml."""
    s = ctx.state
    try:
        plan = role("SAGASMITH_SAGA_PLANNER")(goal=planner_goal(s), profile=ctx.profile)
    except Exception as exc:  # noqa: BLE001 - a planner failure is classified, not a crash
        if classify_runtime_error(str(exc)) == "plan_rejected":
            return terminate(ctx, "plan_rejected", str(exc)[:500])
        plan = {"summary": "", "stages": []}
    stages = [
        stage_from_object(obj, index=i, default_mode=ctx.profile.default_evaluator_mode)
        for i, obj in enumerate(plan.get("stages") or [], start=1)
    ]
    if not stages:
        return await_plan(ctx)
    planned = {"summary": str(plan.get("summary") or ""), "stages": stages}
    try:
        # The same validation as an agent-submitted planYaml (kinds, allow-list, fields).
        plan_validate(planned, profile=ctx.profile)
    except InvalidPlan as exc:
        return await_plan(ctx, exc.details.get("problems") or [exc.message])
    apply_plan(ctx, planned)
    s["transition"] = {"kind": "plan_required"}
    return queue_worker(ctx, stages[0])


def site_worker_finished(ctx: SagaContext) -> dict[str, Any]:
    """Site 2: hard checks, then the deep hand-off or the auto evaluator."""
    s = ctx.state
    stage = current_stage(s)
    if stage is None:
        return terminate(ctx, "completed", f"All {len(s['stages'])} stages passed")
    checks = run_hard_checks(stage["doneCriteria"], ctx.read)
    failed = [c for c in checks if not c.passed]
    if failed:
        diagnostics = ctx.worker_diagnostics
        source = classify_source_unavailable(failed=failed, diagnostics=diagnostics)
        if source:
            return terminate(ctx, "source_unavailable", source)
        return recovery(
            ctx, stage, [c.detail for c in failed], checks=checks, diagnostics=diagnostics
        )
    if stage["evaluatorMode"] == "deep":
        s["transition"] = {"kind": "eval_deep_pending", "stageId": stage["id"]}
        ctx.emit("eval_deep_required", stageId=stage["id"])
        return result(
            "eval_deep_required",
            evalPrompt=deep_eval_prompt(stage=stage, profile=ctx.profile, read=ctx.read),
            stageId=stage["id"],
        )
    verdict = role("SAGASMITH_SAGA_EVALUATOR")(
        stage=stage, profile=ctx.profile, checks=checks, read=ctx.read
    )
    issues = [str(i) for i in verdict.get("issues") or []]
    if not verdict.get("passed"):
        if matches_model_limit(issues):
            return terminate(ctx, "model_capability_exceeded", issue_summary(issues))
        return recovery(ctx, stage, issues, checks=checks, diagnostics=ctx.worker_diagnostics)
    return advance_after_pass(ctx, stage, verdict.get("score"))


def site_deep_verdict(ctx: SagaContext, verdict: dict[str, Any]) -> dict[str, Any]:
    """Site 2b: route a coerced deep verdict (model-limit patterns are not checked, D17)."""
    s = ctx.state
    sid = s["transition"]["stageId"]
    stage = next((st for st in s["stages"] if st["id"] == sid), None)
    if stage is None:
        return terminate(ctx, "internal_error", f"Deep verdict for unknown stage {sid}")
    ctx.emit(
        "deep_eval_completed",
        stageId=sid,
        passed=verdict["passed"],
        score=verdict["score"],
        escalate=verdict["escalate"],
    )
    if verdict["passed"]:
        return advance_after_pass(ctx, stage, verdict["score"])
    if verdict["escalate"]:
        issues = verdict["issues"]
        reason = (
            "Deep eval: criteria unachievable — " + "; ".join(issues)
            if issues
            else "Deep eval: criteria cannot be met with available information"
        )
        diagnostic = (
            f"验收标准无法达成 (the done criteria cannot be met). {reason}\n"
            "Options: 1) saga_cancel(sagaId) to stop; 2) relax the criteria by sending "
            "saga_advance(sagaId, humanInput=...)."
        )
        return await_human(ctx, reason, diagnostic)
    # Diagnostics travel with workerFinished, never with a verdict: classify without them.
    return recovery(ctx, stage, verdict["issues"], checks=[], diagnostics=None)


def advance(
    ctx: SagaContext,
    *,
    worker_finished: bool = False,
    human_input: str | None = None,
    eval_result: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Dispatch one step; the first matching continue-site returns."""
    s = ctx.state
    if s["termination"]:
        return result(
            "terminated", reason=s["termination"]["reason"], details=s["termination"]["details"]
        )
    kind = transition_kind(s)

    if (
        s["clarificationLimit"] > 0
        and s["clarificationRound"] < s["clarificationLimit"]
        and s["plan"] is None
        and kind != "awaiting_plan_yaml"  # D19: clarification is over once a plan is awaited
    ):
        outcome = site_clarification(ctx, human_input)
        if outcome is not None:
            return outcome
        kind = transition_kind(s)

    if s["plan"] is None:
        return site_plan(ctx)

    if kind is None and s["stages"]:
        return queue_worker(ctx, s["stages"][s["cursor"]])

    if worker_finished:
        return site_worker_finished(ctx)

    if kind == "eval_deep_pending" and eval_result is not None:
        return site_deep_verdict(ctx, eval_result)

    if kind == "eval_needs_fix_attempt":
        return _retry_outcome(ctx)

    if kind == "microcompact_retry":
        ctx.revision_reason = s["transition"]["summary"]
        return queue_worker(ctx, _stage_by_id(s, s["transition"]["stageId"]))

    if kind == "rework_full":
        ctx.revision_reason = issue_summary(s["transition"]["issues"])
        return queue_worker(ctx, _stage_by_id(s, s["transition"]["stageId"]))

    if kind == "awaiting_human":
        if human_input:
            stage = current_stage(s)
            guidance_add(s, stage_id=stage["id"], text=human_input)
            ctx.emit("human_input_received", stageId=stage["id"], text=human_input)
            return queue_worker(ctx, stage)
        return result("await_human", diagnostic=s["transition"]["reason"])

    if kind == "worker_mode_injected":
        return result(
            "continue_worker_now",
            reason=f"Worker mode active for stage {s['transition']['stageId']}",
        )

    if kind == "eval_deep_pending":
        # D4: re-issue the evaluation request instead of killing the saga; no new event.
        return _deep_request(ctx)

    return terminate(ctx, "internal_error", f"Unhandled state: transition {kind}")


def _retry_outcome(ctx: SagaContext) -> dict[str, Any]:
    """Site 3: repeat the pending fix attempt; no state change."""
    transition = ctx.state["transition"]
    attempt = transition["attempt"]
    ctx.revision_reason = layer_reason(recovery_layer(attempt - 1), attempt, transition["issues"])
    return result(
        "revision_queued",
        stageId=transition["stageId"],
        reason=f"Retry attempt {attempt} — previous output did not meet criteria",
    )


def _deep_request(ctx: SagaContext) -> dict[str, Any]:
    stage = _stage_by_id(ctx.state, ctx.state["transition"]["stageId"])
    return result(
        "eval_deep_required",
        evalPrompt=deep_eval_prompt(stage=stage, profile=ctx.profile, read=ctx.read),
        stageId=stage["id"],
    )


def current_outcome(ctx: SagaContext) -> dict[str, Any]:
    """What the saga is waiting for, without running the roles or changing anything.

    Answers repeated requests (a retried workerFinished or saga_start) whose effect is
    already recorded; it emits no event and leaves the state as it is.
    """
    s = ctx.state
    if s["termination"]:
        return result(
            "terminated", reason=s["termination"]["reason"], details=s["termination"]["details"]
        )
    kind = transition_kind(s)
    if kind == "clarifying_requirements":
        return result(
            "clarification_needed",
            questions=s["transition"]["questions"],
            round=s["clarificationRound"],
            limit=s["clarificationLimit"],
        )
    if s["plan"] is None:
        problems = (s["transition"] or {}).get("problems")
        return result("await_human", diagnostic=plan_diagnostic(s["goal"], problems))
    if kind == "awaiting_human":
        return result("await_human", diagnostic=s["transition"]["reason"])
    if kind == "eval_deep_pending":
        return _deep_request(ctx)
    if kind == "eval_needs_fix_attempt":
        return _retry_outcome(ctx)
    stage = current_stage(s)
    if stage is None:
        return result("await_human", diagnostic="No stage is active.")
    if kind == "microcompact_retry":
        ctx.revision_reason = s["transition"]["summary"]
    elif kind == "rework_full":
        ctx.revision_reason = issue_summary(s["transition"]["issues"])
    return result("continue_worker_now", reason=f"Worker mode active for stage {stage['id']}")


def _stage_by_id(state: dict[str, Any], stage_id: str) -> dict[str, Any]:
    return next(st for st in state["stages"] if st["id"] == stage_id)
