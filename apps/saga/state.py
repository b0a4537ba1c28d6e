"""The saga state document, its progress view and the worker context."""

from __future__ import annotations

import json
import secrets
import string
import time
from datetime import UTC, datetime
from typing import Any

from django.utils import timezone

TERMINATION_REASONS = (
    "completed",
    "aborted_by_user",
    "worker_unrecoverable",
    "source_unavailable",
    "model_capability_exceeded",
    "internal_error",
    "plan_rejected",
    "budget_exceeded",
    "external_check_failed",
    "human_input_required",
)
_BASE36 = string.digits + string.ascii_lowercase


def new_saga_key() -> str:
    """REF format: saga-<epoch_ms>-<6 base36 chars>."""
    suffix = "".join(secrets.choice(_BASE36) for _ in range(6))
    return f"saga-{int(time.time() * 1000)}-{suffix}"


def now() -> datetime:
    """Current time truncated to milliseconds, so the ISO text survives a database round trip."""
    current = timezone.now()
    return current.replace(microsecond=current.microsecond // 1000 * 1000)


def iso_ts(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_state(*, saga_id: str, profile: str, goal: str, clarification_limit: int) -> dict[str, Any]:
    return {
        "sagaId": saga_id,
        "profile": profile,
        "goal": goal,
        "plan": None,
        "stages": [],
        "cursor": 0,
        "modeRevision": 0,
        "transition": None,
        "recoveryAttempts": {},
        "compactedEvalIds": [],
        "clarificationRound": 0,
        "clarificationHistory": [],
        "clarificationLimit": clarification_limit,
        "humanGuidance": [],
        "termination": None,
    }


# Guidance kept per stage and repeated in every worker context; each message may be long and
# the agent can ask for one on every escalation, so only the latest ones within this are kept.
MAX_STAGE_GUIDANCE_CHARS = 20_000


def guidance_add(state: dict[str, Any], *, stage_id: str, text: str) -> None:
    """Record human guidance for a stage, dropping the oldest beyond the cap (always keep one)."""
    state["humanGuidance"].append({"stageId": stage_id, "text": text})
    mine = [g for g in state["humanGuidance"] if g["stageId"] == stage_id]
    dropped = 0
    while len(mine) > 1 and sum(len(g["text"]) for g in mine) > MAX_STAGE_GUIDANCE_CHARS:
        oldest = mine.pop(0)
        state["humanGuidance"].remove(oldest)
        dropped += 1
    if dropped:
        omitted = state.setdefault("humanGuidanceOmitted", {})
        omitted[stage_id] = omitted.get(stage_id, 0) + dropped


def current_stage(state: dict[str, Any]) -> dict[str, Any] | None:
    stages = state["stages"]
    cursor = state["cursor"]
    return stages[cursor] if 0 <= cursor < len(stages) else None


def transition_kind(state: dict[str, Any]) -> str | None:
    transition = state["transition"]
    return transition["kind"] if transition else None


def saga_status_for(state: dict[str, Any]) -> str:
    """The coarse status shown in the admin and used to count active sagas."""
    termination = state["termination"]
    if termination:
        return "completed" if termination["reason"] == "completed" else "terminated"
    kind = transition_kind(state)
    if kind == "clarifying_requirements":
        return "clarifying"
    if kind == "awaiting_human":
        return "awaiting_human"
    if kind == "eval_deep_pending":
        return "evaluating"
    if kind in ("eval_needs_fix_attempt", "microcompact_retry", "rework_full"):
        return "recovering"
    if state["plan"] is None:
        return "planning"
    return "running"


def progress(state: dict[str, Any]) -> dict[str, Any]:
    stages = state["stages"]
    total = len(stages)
    cursor = state["cursor"]
    completed = min(cursor, total)
    stage = current_stage(state)
    lines = [f"📋 Saga 进度: {completed}/{total} 阶段完成"]
    for index, item in enumerate(stages):
        if index < cursor:
            lines.append(f"✅ Stage {index + 1}: {item['title']} — 已完成")
        elif index == cursor:
            lines.append(f"🔄 Stage {index + 1}: {item['title']} — 进行中")
        else:
            lines.append(f"⬜ Stage {index + 1}: {item['title']} — 待开始")
    return {
        "totalStages": total,
        "completedStages": completed,
        "currentStage": {"id": stage["id"], "title": stage["title"]} if stage else None,
        "remainingStages": [
            {"id": item["id"], "title": item["title"]} for item in stages[cursor + 1 :]
        ],
        "display": "\n".join(lines),
    }


def _artifact_note(criterion: dict[str, Any]) -> str | None:
    kind = criterion.get("kind")
    if kind in ("file-exists", "file-size-gt") and criterion.get("minBytes") is not None:
        return f"min {criterion['minBytes']} bytes"
    if kind == "progress-items" and criterion.get("minItems") is not None:
        return f"at least {criterion['minItems']} items: list lines or a JSON list"
    if kind == "file-schema" and criterion.get("schema") not in (None, ""):
        return f"JSON matching this JSON Schema: {compact_json(criterion['schema'])}"
    if kind == "log-scan" and criterion.get("pattern"):
        return f"a line must match /{criterion['pattern']}/"
    return None


def required_artifacts(criteria: list[dict[str, Any]]) -> list[str]:
    """One line per artifact path any criterion checks, with what each check expects."""
    notes: dict[str, list[str]] = {}
    for criterion in criteria:
        path = criterion.get("path")
        if not path:
            continue
        note = _artifact_note(criterion)
        notes.setdefault(path, [])
        if note and note not in notes[path]:
            notes[path].append(note)
    return [f"- {path} ({'; '.join(n)})" if n else f"- {path}" for path, n in notes.items()]


def compact_json(value: Any) -> str:
    """A schema as one line of JSON (a string schema is shown as written)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def worker_context(
    state: dict[str, Any], *, tool_hint: str, revision_reason: str | None = None
) -> str | None:
    """The worker-mode block injected into the agent for the stage at the cursor."""
    stage = current_stage(state)
    if stage is None:
        return None
    total = len(state["stages"])
    lines = [
        f'## Worker Mode: Stage ({state["cursor"] + 1}/{total}) "{stage["title"]}"',
        f"Saga: {state['sagaId']} | Stage: {stage['id']}",
        "",
        f"Goal: {stage['goal']}",
    ]
    if revision_reason:
        lines += ["Previous attempt failed. Fix these issues:", revision_reason]
    guidance = [g["text"] for g in state.get("humanGuidance", []) if g["stageId"] == stage["id"]]
    if guidance:
        lines += ["", "Guidance from the human:"]
        omitted = state.get("humanGuidanceOmitted", {}).get(stage["id"], 0)
        if omitted:
            lines.append(
                f"({omitted} earlier message{'s' if omitted != 1 else ''} from the human "
                "omitted; the latest follow.)"
            )
        lines += [f"- {text}" for text in guidance]
    lines += [
        "",
        "Announce that you are starting this stage, then do the work; keep the conversation "
        "going until the stage is done.",
        "",
        tool_hint.strip(),
        "",
        "When finished, call saga_advance(sagaId, workerFinished=true, "
        f'stageId="{stage["id"]}", artifacts=[{{path, content}}]).',
    ]
    lines += ["Required artifacts:"] + (required_artifacts(stage["doneCriteria"]) or ["- (none)"])
    lines += ["", "Announce completion of the stage when you submit it."]
    return "\n".join(lines)
