"""Loose plan parser: markdown with `## Stage N` headings and yaml blocks (spec §3).

The yaml blocks are read by a forgiving line reader, not a YAML parser, so agent-written plans
with odd quoting still parse. Validation against the profile happens in `plan_validate`.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import jsonschema
import referencing.exceptions
from django.utils.translation import gettext as _
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from .checks import LogPatternNotSupported, log_pattern_compile
from .errors import InvalidPlan
from .profiles import EXECUTABLE_KINDS, KNOWN_KINDS, Profile

_SPLIT = re.compile(r"(?m)^(?=##\s)")
_STAGE_HEAD = re.compile(r"^(stage\s+\d|s\d)", re.IGNORECASE)
_TITLE = re.compile(r"^stage\s*(\d+)\s*:?\s*(.*)$", re.IGNORECASE)
_YAML_BLOCK = re.compile(r"```(?:yaml|yml)[ \t]*\n(.*?)```", re.IGNORECASE | re.DOTALL)
_GOAL = re.compile(r"Goal:\s*(.*)")

ALIASES: dict[str, tuple[str, ...]] = {
    "minBytes": ("bytes", "minBytes", "minSize", "threshold", "sizeMin", "min-size"),
    "path": ("path", "filePath", "file", "location"),
    "desc": ("desc", "description", "text", "prompt", "criteria"),
    "command": ("command", "cmd", "run", "shell"),
    "pattern": ("pattern", "regex", "match", "query"),
    "minItems": ("minItems", "count", "min", "items"),
    "schema": ("schema", "jsonSchema"),
}
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "file-exists": ("path",),
    "file-size-gt": ("path", "minBytes"),
    "command": ("command",),
    "log-scan": ("path",),
    "file-schema": ("path", "schema"),
    "progress-items": ("path", "minItems"),
}


def _pick(item: dict[str, Any], target: str) -> Any:
    for alias in ALIASES[target]:
        value = item.get(alias)
        if value is not None and value != "":
            return value
    return None


def _number(value: Any) -> int | float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(str(value).strip().strip("'\""))
    except ValueError:
        return None
    if not math.isfinite(number):
        return None
    return int(number) if number.is_integer() else number


def _text(value: Any) -> str:
    return str(value).strip()


def criterion_normalize(item: Any) -> dict[str, Any]:
    """Map aliases onto the canonical fields of one done criterion."""
    if not isinstance(item, dict):
        return {"kind": "free-form", "desc": str(item)}
    kind = _text(item.get("kind") or "free-form")
    out: dict[str, Any] = {"kind": kind}
    path = _pick(item, "path")
    min_bytes = _number(_pick(item, "minBytes"))
    if kind in ("file-exists", "file-size-gt", "log-scan", "file-schema", "progress-items"):
        if path is not None:
            out["path"] = _text(path)
    if kind == "file-exists":
        if min_bytes is not None:
            out["minBytes"] = min_bytes
    elif kind == "file-size-gt":
        if min_bytes is not None:
            out["minBytes"] = min_bytes
    elif kind == "command":
        command = _pick(item, "command")
        if command is not None:
            out["command"] = _text(command)
    elif kind == "log-scan":
        pattern = _pick(item, "pattern")
        if pattern is not None:
            out["pattern"] = _text(pattern)
    elif kind == "file-schema":
        schema = _pick(item, "schema")
        if schema is not None:
            out["schema"] = schema
    elif kind == "progress-items":
        min_items = _number(_pick(item, "minItems"))
        if min_items is not None:
            out["minItems"] = min_items
    elif kind == "free-form":
        desc = _pick(item, "desc")
        if desc is not None:
            out["desc"] = _text(desc)
    else:
        out = {**item, "kind": kind}
    return out


def _read_yaml_lines(block: str) -> tuple[str | None, list[Any]]:
    """Line reader: evaluator mode plus the raw `done:` items (spec §3 step 4)."""
    mode: str | None = None
    items: list[Any] = []
    current: dict[str, Any] | None = None
    in_done = False
    for raw in block.splitlines():
        line = raw.strip()
        if not line:
            continue
        if in_done and line.startswith("-"):
            body = line[1:].strip()
            if ":" not in body:
                items.append(body)
                current = None
                continue
            key, value = body.split(":", 1)
            current = {key.strip(): value.strip()}
            items.append(current)
            if key.strip() == "evaluator":
                mode = value.strip()
            continue
        if ":" not in line:
            in_done = False
            current = None
            continue
        key, value = (part.strip() for part in line.split(":", 1))
        if key == "done":
            in_done = True
            current = None
            continue
        if key == "evaluator":
            mode = value
        if in_done and current is not None:
            current[key] = value
    return mode, items


def _stage_from_chunk(chunk: str, block: str, index: int, default_mode: str) -> dict[str, Any]:
    stage_id = f"stage-{index:02d}"
    heading = chunk.splitlines()[0].lstrip("#").strip()
    match = _TITLE.match(heading)
    title = match.group(2).strip() if match and match.group(2).strip() else f"Stage {index}"
    goal_match = _GOAL.search(chunk)
    goal = goal_match.group(1).strip() if goal_match else ""
    mode, items = _read_yaml_lines(block)
    criteria = [criterion_normalize(item) for item in items]
    if not criteria:
        criteria = [
            {"kind": "free-form", "desc": f"Stage {stage_id} — no machine-checkable criteria"}
        ]
    return {
        "id": stage_id,
        "title": title,
        "goal": goal,
        "doneCriteria": criteria,
        "evaluatorMode": mode if mode in ("auto", "deep") else default_mode,
    }


def _fallback_stage(index: int) -> dict[str, Any]:
    stage_id = f"stage-{index:02d}"
    return {
        "id": stage_id,
        "title": f"Stage {index}",
        "goal": "Goal could not be parsed; follow the plan text for this stage.",
        "doneCriteria": [
            {"kind": "free-form", "desc": f"Stage {stage_id} — judged by the deep evaluator"}
        ],
        "evaluatorMode": "deep",
    }


def plan_parse(text: str, *, default_mode: str = "auto") -> dict[str, Any]:
    """Parse loose plan markdown into {summary, stages}; never raises on odd input."""
    summary = ""
    stages: list[dict[str, Any]] = []
    for chunk in (c for c in _SPLIT.split(text or "") if c.strip()):
        heading = chunk.splitlines()[0].lstrip("#").strip()
        if not stages and not _STAGE_HEAD.match(heading):
            body = " ".join(line.strip() for line in chunk.splitlines()[1:] if line.strip())
            summary = body if len(body) <= 500 else body[:497] + "..."
            continue
        block = _YAML_BLOCK.search(chunk)
        if block is None:
            continue
        index = len(stages) + 1
        try:
            stages.append(_stage_from_chunk(chunk, block.group(1), index, default_mode))
        except Exception:  # noqa: BLE001 - a broken stage degrades to free-form, never aborts
            stages.append(_fallback_stage(index))
    return {"summary": summary, "stages": stages}


def stage_from_object(obj: dict[str, Any], *, index: int, default_mode: str) -> dict[str, Any]:
    """Normalize a stage object from a planner component (accepts field aliases)."""
    criteria_raw = next(
        (obj[k] for k in ("doneCriteria", "done-criteria", "checks", "done") if k in obj), []
    )
    if not isinstance(criteria_raw, list):
        criteria_raw = [criteria_raw]
    criteria = [criterion_normalize(item) for item in criteria_raw]
    stage_id = f"stage-{index:02d}"
    if not criteria:
        criteria = [
            {"kind": "free-form", "desc": f"Stage {stage_id} — no machine-checkable criteria"}
        ]
    mode = obj.get("evaluatorMode") or obj.get("evaluator")
    return {
        "id": stage_id,
        "title": _text(obj.get("title") or obj.get("name") or f"Stage {index}"),
        "goal": _text(obj.get("goal") or obj.get("description") or obj.get("objective") or ""),
        "doneCriteria": criteria,
        "evaluatorMode": mode if mode in ("auto", "deep") else default_mode,
    }


def plan_missing_fields(plan: dict[str, Any]) -> list[str]:
    """Soft report of missing fields: '<id>: goal' and '<id>: done.<field>'."""
    missing: list[str] = []
    for stage in plan["stages"]:
        if not stage["goal"]:
            missing.append(f"{stage['id']}: goal")
        for criterion in stage["doneCriteria"]:
            for field in REQUIRED_FIELDS.get(criterion["kind"], ()):
                if criterion.get(field) in (None, ""):
                    missing.append(f"{stage['id']}: done.{field}")
    return missing


def plan_feedback(missing: list[str]) -> str:
    lines = ["The plan is missing these fields:"] + [f"- {item}" for item in missing]
    lines.append("Please revise the plan and resubmit it with saga_advance(planYaml=...).")
    return "\n".join(lines)


def _schema_of(criterion: dict[str, Any]) -> dict[str, Any]:
    schema = criterion["schema"]
    if isinstance(schema, str):
        schema = json.loads(schema)
    if not isinstance(schema, dict):
        raise ValueError("schema must be a JSON object")
    jsonschema.Draft202012Validator.check_schema(schema)
    _check_refs(schema)
    return schema


def _refs(node: Any) -> tuple[list[str], bool]:
    """Every $ref string in a schema, and whether a nested $id changes the base they resolve in."""
    refs: list[str] = []
    nested_id = False
    stack = [(node, True)]
    while stack:
        item, root = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("$ref"), str):
                refs.append(item["$ref"])
            nested_id = nested_id or (not root and "$id" in item)
            stack += [(value, False) for value in item.values()]
        elif isinstance(item, list):
            stack += [(value, False) for value in item]
    return refs, nested_id


def _check_refs(schema: dict[str, Any]) -> None:
    """Nothing is fetched when checking, so every $ref must point inside the schema itself.

    With a nested $id the base of a $ref is not the root's; those are left to the check.
    """
    refs, nested_id = _refs(schema)
    if not refs or nested_id:
        return
    resource = DRAFT202012.create_resource(schema)
    base = resource.id() or ""
    resolver = Registry().with_resource(base, resource).resolver(base_uri=base)
    for ref in refs:
        try:
            resolver.lookup(ref)
        except referencing.exceptions.Unresolvable as exc:
            raise ValueError(f"$ref {ref!r} cannot be resolved") from exc


def plan_validate(plan: dict[str, Any], *, profile: Profile) -> None:
    """Hard validation at submission; raises InvalidPlan naming every problem found."""
    if not plan["stages"]:
        raise InvalidPlan(
            _(
                "Plan parsing returned zero stages. Each stage needs a '## Stage N: <title>' "
                "heading followed by a ```yaml block with done: and evaluator:."
            )
        )
    problems: list[str] = []
    for stage in plan["stages"]:
        for criterion in stage["doneCriteria"]:
            kind = criterion["kind"]
            where = f"{stage['id']}: kind {kind!r}"
            if kind not in KNOWN_KINDS:
                problems.append(f"{where} is unknown")
            elif kind not in EXECUTABLE_KINDS:
                problems.append(f"{where} is not executed on this platform")
            elif kind not in profile.allowed_kinds:
                problems.append(f"{where} is not allowed for profile {profile.id}")
            else:
                for field in REQUIRED_FIELDS.get(kind, ()):
                    if criterion.get(field) in (None, ""):
                        problems.append(f"{stage['id']}: done.{field} is required for {kind}")
                if kind == "file-schema" and criterion.get("schema") not in (None, ""):
                    try:
                        criterion["schema"] = _schema_of(criterion)
                    except (ValueError, jsonschema.SchemaError) as exc:
                        problems.append(f"{stage['id']}: done.schema is not a JSON Schema ({exc})")
                if kind == "log-scan" and criterion.get("pattern"):
                    try:
                        log_pattern_compile(criterion["pattern"])
                    except LogPatternNotSupported as exc:
                        problems.append(
                            f"{stage['id']}: done.pattern is not a regex RE2 can run ({exc})"
                        )
                path = criterion.get("path")
                if path and not artifact_path_ok(path):
                    problems.append(f"{stage['id']}: path {path!r} must be relative without '..'")
    if problems:
        raise InvalidPlan(
            _("The plan was rejected: %(problems)s.") % {"problems": "; ".join(problems)},
            details={"problems": problems},
        )


def artifact_path_ok(path: str) -> bool:
    """Relative, no '..' segment, no backslash tricks, no NUL."""
    if not path or path.startswith(("/", "\\")) or "\x00" in path:
        return False
    if re.match(r"^[A-Za-z]:", path):
        return False
    parts = re.split(r"[\\/]", path)
    return ".." not in parts and len(path) <= 255
