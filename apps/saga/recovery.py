"""Recovery cascade, microcompact and the failure classifiers (spec §5 with D2, D3, D10)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .checks import CheckResult

MAX_RECOVERY_ATTEMPTS = 4
SUMMARY_LIMIT = 200

_SOURCE_UNAVAILABLE = re.compile(
    r"\b(?:403|404)\b|login required|unauthorized|forbidden|access denied|rate limit",
    re.IGNORECASE,
)
_MODEL_LIMIT = re.compile(
    r"too long|context (?:window|length|size) exceed|token limit|maximum output"
    r"|cannot (?:process|handle|complete)",
    re.IGNORECASE,
)
_NETWORK = re.compile(r"timeout|connection reset|ECONNRESET", re.IGNORECASE)
# The lookbehind starts a try only at the first digit of a run: without it every digit of a
# long run (a quoted artifact value) starts a scan to the run's end, quadratic in its length.
_SIZE_SHORTFALL = re.compile(r"(?<!\d)\d+ bytes, expected")
_EMPTY_STATUS = re.compile(r"^[45]\d\d|empty|no results", re.IGNORECASE)


@dataclass(frozen=True)
class Layer:
    number: int
    method: str
    transition: str | None
    next_action: str


def issue_summary(issues: list[str]) -> str:
    return "; ".join(issues[:3])


def recovery_layer(attempts: int) -> Layer:
    """Pick the layer from the failure count before it is bumped (spec §5.1)."""
    if attempts <= 1:
        return Layer(attempts, "fix-attempt", "eval_needs_fix_attempt", "revision_queued")
    if attempts == 2:
        return Layer(2, "microcompact-retry", "microcompact_retry", "revision_queued")
    if attempts == 3:
        return Layer(3, "full-rework", "rework_full", "worker_mode_queued")
    return Layer(4, "terminal", None, "terminated")


def layer_reason(layer: Layer, attempt: int, issues: list[str]) -> str:
    summary = issue_summary(issues)
    if layer.method == "fix-attempt":
        return f"fix-attempt {attempt}: {summary}"
    if layer.method == "microcompact-retry":
        compact = microcompact({"issues": issues, "stageId": ""})["summary"]
        return (
            "microcompact-retry: clearing old eval context, re-entering worker mode. "
            f"Issues: {compact}"
        )
    if layer.method == "full-rework":
        return f"full-rework 4: resetting stage. Issues: {summary}"
    return f"All 4 recovery layers exhausted: {summary}"


def microcompact(evaluation: dict[str, Any]) -> dict[str, Any]:
    """Compact an evaluation to a verdict, a <= 200-character summary and a pointer."""
    summary = (
        evaluation.get("summary")
        or evaluation.get("details")
        or "; ".join(str(i) for i in evaluation.get("issues", []))
    )
    if len(summary) > SUMMARY_LIMIT:
        summary = summary[: SUMMARY_LIMIT - 3] + "..."
    return {
        "verdict": "passed" if evaluation.get("passed") else "rework",
        "score": evaluation.get("score"),
        "summary": summary,
        "pointer": f"see-original-at-{evaluation.get('stageId', '')}-eval.json",
    }


def collapse_evaluations(
    evaluations: list[dict[str, Any]], *, cursor: int
) -> list[dict[str, Any] | str]:
    """Full eval at distance <= 1 from the cursor, compact at <= 3, one line beyond."""
    collapsed: list[dict[str, Any] | str] = []
    for evaluation in evaluations:
        distance = abs(cursor - evaluation["stageIndex"])
        if distance <= 1:
            collapsed.append(evaluation)
        elif distance <= 3:
            collapsed.append(microcompact(evaluation))
        else:
            verdict = "passed" if evaluation.get("passed") else "rework"
            collapsed.append(f"{evaluation.get('stageId', '')}: {verdict}")
    return collapsed


def classify_source_unavailable(
    *, failed: list[CheckResult], diagnostics: dict[str, Any] | None
) -> str | None:
    """A terminal 'source unavailable' detail, read from check output and diagnostics only (D3)."""
    texts = [c.output for c in failed if c.output]
    if diagnostics:
        texts += [str(e) for e in diagnostics.get("errorsCaught", [])]
        if diagnostics.get("notes"):
            texts.append(str(diagnostics["notes"]))
    for text in texts:
        match = _SOURCE_UNAVAILABLE.search(text)
        if match:
            return f"Source unavailable ({match.group(0)}): {text[:200]}"
    return None


def matches_model_limit(issues: list[str]) -> bool:
    return any(_MODEL_LIMIT.search(issue) for issue in issues)


@dataclass(frozen=True)
class RootCause:
    kind: str
    strategy: str
    message: str = ""


def classify_root_cause(
    *, checks: list[CheckResult], diagnostics: dict[str, Any] | None
) -> RootCause:
    """network_transient, information_unavailable (→ awaiting_human) or quality_insufficient."""
    diagnostics = diagnostics or {}
    if any(_NETWORK.search(str(e)) for e in diagnostics.get("errorsCaught", [])):
        return RootCause("network_transient", "fix-attempt")
    urls = diagnostics.get("urlsAttempted") or []
    size_shortfall = any(not c.passed and _SIZE_SHORTFALL.search(c.detail) for c in checks)
    if (
        size_shortfall
        and urls
        and all(
            _EMPTY_STATUS.search(str(u.get("status", "")) if isinstance(u, dict) else str(u))
            for u in urls
        )
    ):
        terms = ", ".join(str(t) for t in diagnostics.get("searchedTerms") or []) or "(unknown)"
        return RootCause(
            "information_unavailable",
            "awaiting_human",
            f"The worker could not find enough information. Searched: {terms}. "
            "Every source returned an error or nothing. Suggest a narrower direction or "
            "other sources via humanInput, or saga_cancel.",
        )
    return RootCause("quality_insufficient", "fix-attempt")


def classify_runtime_error(message: str) -> str:
    """'plan_rejected' for planner refusals, otherwise 'recoverable'."""
    lowered = message.lower()
    if "plan" in lowered and re.search(r"reject|fail|unable", lowered):
        return "plan_rejected"
    return "recoverable"
