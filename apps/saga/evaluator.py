"""Deep-evaluator prompt, verdict parsing and the default auto evaluator (spec §6)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from .checks import CheckResult
from .errors import InvalidVerdict
from .profiles import Profile
from .state import compact_json

ArtifactReader = Callable[[str], str | None]

# A verdict's issues are stored in events and the state and echoed in every revision prompt.
MAX_VERDICT_ISSUES = 50
MAX_ISSUE_CHARS = 2000


# Criterion fields shown to the evaluator, in this order (desc last, as in REF).
_CRITERION_FIELDS = ("path", "minBytes", "minItems", "pattern", "schema", "command", "desc")


def criteria_text(criteria: list[dict[str, Any]]) -> str:
    lines = []
    for c in criteria:
        line = f"- kind: {c.get('kind')}"
        for name in _CRITERION_FIELDS:
            value = c.get(name)
            if value is None or value == "":
                continue
            line += f", {name}: {compact_json(value) if name == 'schema' else value}"
        lines.append(line)
    return "\n".join(lines)


def artifact_paths(criteria: list[dict[str, Any]]) -> list[str]:
    """Every path a criterion names, once, in order of first appearance."""
    return list(dict.fromkeys(c["path"] for c in criteria if c.get("path")))


# Artifacts may total 20 MiB; the evaluator model sees at most this much of them, and is told
# what it does not see so that it never judges a cut artifact as if it were whole.
MAX_PROMPT_ARTIFACT_CHARS = 20_000
MAX_PROMPT_ARTIFACTS_CHARS = 100_000


def artifacts_text(criteria: list[dict[str, Any]], read: ArtifactReader) -> str:
    blocks = []
    budget = MAX_PROMPT_ARTIFACTS_CHARS
    for path in artifact_paths(criteria):
        content = read(path)
        if content is None:
            continue
        size = len(content)
        if budget <= 0 and size:
            blocks.append(
                f"--- {path} (omitted: {size} characters; "
                "the prompt has no room left for artifacts) ---"
            )
            continue
        shown = min(size, MAX_PROMPT_ARTIFACT_CHARS, budget)
        budget -= shown
        if shown == size:
            blocks.append(f"--- {path} ---\n{content}")
        else:
            blocks.append(
                f"--- {path} (truncated: first {shown} of {size} characters shown) ---\n"
                f"{content[:shown]}\n[... {size - shown} more characters of {path} not shown ...]"
            )
    return "\n\n".join(blocks) if blocks else "(No artifacts found)"


def deep_eval_prompt(*, stage: dict[str, Any], profile: Profile, read: ArtifactReader) -> str:
    """Render the one evaluator template from the profile checklist and few-shot file."""
    hard = profile.checklist["hard"]
    soft = profile.checklist["soft"]
    parts = [
        "You are an independent evaluator. Work through the concrete checklist below item by "
        "item; do not give a subjective overall score.",
        "",
        f"## Stage\nId: {stage['id']}\nTitle: {stage['title']}\nGoal: {stage['goal']}\n"
        f"Profile: {profile.label}",
        f"## Done criteria\n{criteria_text(stage['doneCriteria'])}",
        f"## Output\n{artifacts_text(stage['doneCriteria'], read)}",
        f"## Few-shot calibration\n{profile.few_shot.strip() or '(none)'}",
        "## HARD checklist (every item must PASS)",
    ]
    for item in hard:
        parts.append(
            f"**{item['id']} — {item['title']}**\n"
            f"- PASS: {item['pass']}\n- FAIL-REWORK: {item['failRework']}\n"
            f"- FAIL-ESCALATE: {item['failEscalate']}"
        )
    parts.append("## SOFT checklist (score each 1–5)")
    for item in soft:
        parts.append(
            f"**{item['id']} — {item['title']}** (weight {item['weight']})\n{item['scoringGuide']}"
        )
    template = {
        "checklist": [
            {"id": h["id"], "status": "PASS|FAIL-REWORK|FAIL-ESCALATE", "evidence": ""}
            for h in hard
        ]
        + [{"id": s["id"], "score": 0, "notes": ""} for s in soft],
        "passed": False,
        "escalate": False,
        "score": 0,
        "issues": [],
    }
    parts += [
        "## Verdict rules\n"
        "- All HARD items PASS → passed=true.\n"
        "- Any FAIL-REWORK → passed=false, escalate=false.\n"
        "- Any FAIL-ESCALATE → passed=false, escalate=true. Escalate only when a criterion is "
        "genuinely impossible to meet, not when the output is poor.\n"
        "- score is the weighted average of the SOFT scores; it does not affect pass or fail.",
        "Reply with this JSON, then send it as saga_advance(evalResult=...):",
        "```json\n" + json.dumps(template, indent=2) + "\n```",
    ]
    return "\n\n".join(parts)


def verdict_coerce(raw: Any) -> dict[str, Any]:
    """Coerce an evalResult; raises InvalidVerdict naming the malformed field."""
    if not isinstance(raw, dict):
        raise InvalidVerdict(_("evalResult must be an object."))
    if not isinstance(raw.get("passed"), bool):
        raise InvalidVerdict(_("evalResult.passed must be true or false."))
    escalate = raw.get("escalate", False)
    if not isinstance(escalate, bool):
        raise InvalidVerdict(_("evalResult.escalate must be true or false."))
    issues = raw.get("issues", [])
    if issues is None:
        issues = []
    if not isinstance(issues, list):
        raise InvalidVerdict(_("evalResult.issues must be a list of strings."))
    if len(issues) > MAX_VERDICT_ISSUES:
        raise InvalidVerdict(
            _("evalResult.issues has %(n)d items; the limit is %(max)d.")
            % {"n": len(issues), "max": MAX_VERDICT_ISSUES},
            details={"field": "issues", "count": len(issues), "limit": MAX_VERDICT_ISSUES},
        )
    issues = [str(i) for i in issues]
    for index, issue in enumerate(issues):
        if len(issue) > MAX_ISSUE_CHARS:
            raise InvalidVerdict(
                _("evalResult.issues[%(i)d] is %(n)d characters; the limit is %(max)d.")
                % {"i": index, "n": len(issue), "max": MAX_ISSUE_CHARS},
                details={
                    "field": "issues",
                    "index": index,
                    "length": len(issue),
                    "limit": MAX_ISSUE_CHARS,
                },
            )
    score = raw.get("score")
    # NaN and infinities are not JSON: stored in an event they would fail the whole call.
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        score = None
    return {
        "passed": raw["passed"],
        "score": score,
        "issues": issues,
        "escalate": escalate,
    }


def verdict_parse_text(text: str) -> dict[str, Any]:
    """Lenient parse of an LLM reply: the span from the first '{' to the last '}'."""
    start, end = text.find("{"), text.rfind("}")
    if start == -1 or end <= start:
        return {
            "passed": False,
            "score": None,
            "issues": ["Deep evaluator output was not valid JSON"],
            "escalate": False,
        }
    try:
        data = json.loads(text[start : end + 1])
        if isinstance(data, dict) and isinstance(data.get("issues"), list):
            # A model's long list is cut, not refused: the verdict itself still stands.
            data["issues"] = [
                issue if len(issue) <= MAX_ISSUE_CHARS else issue[: MAX_ISSUE_CHARS - 3] + "..."
                for issue in (str(i) for i in data["issues"][:MAX_VERDICT_ISSUES])
            ]
        return verdict_coerce(data)
    except (json.JSONDecodeError, InvalidVerdict):
        return {
            "passed": False,
            "score": None,
            "issues": ["Failed to parse deep evaluator JSON"],
            "escalate": False,
        }


def hard_check_evaluator(
    *, stage: dict[str, Any], profile: Profile, checks: list[CheckResult], read: ArtifactReader
) -> dict[str, Any]:
    """Default auto evaluator: the machine checks decide; free-form is not judged in auto mode."""
    judged = [c for c in checks if c.kind != "free-form"]
    failed = [c.detail for c in judged if not c.passed]
    score = (len(judged) - len(failed)) / len(judged) if judged else 1.0
    return {"passed": not failed, "score": score, "issues": failed}
