"""Hard checks on submitted artifacts (spec §4 with D7 and D11: sizes are UTF-8 bytes)."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jsonschema
import re2
import referencing.exceptions

ArtifactReader = Callable[[str], str | None]


@dataclass(frozen=True)
class CheckResult:
    kind: str
    passed: bool
    detail: str
    # Text produced by the check itself (log lines); the only part the source classifier reads.
    output: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "passed": self.passed, "detail": self.detail}


@dataclass(frozen=True)
class CheckTraits:
    read_only: bool
    concurrency_safe: bool


def check_traits(kind: str) -> CheckTraits:
    if kind == "command":
        return CheckTraits(read_only=False, concurrency_safe=False)
    if kind == "browser":
        return CheckTraits(read_only=True, concurrency_safe=False)
    return CheckTraits(read_only=True, concurrency_safe=True)


def partition_criteria(
    criteria: list[dict[str, Any]], *, known: frozenset[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Split criteria into (read-only, write) groups; unknown kinds count as writes."""
    read_only, write = [], []
    for criterion in criteria:
        kind = criterion.get("kind", "")
        if kind in known and check_traits(kind).read_only:
            read_only.append(criterion)
        else:
            write.append(criterion)
    return read_only, write


def byte_size(content: str) -> int:
    return len(content.encode("utf-8"))


def _size_failure(path: str, size: int, minimum: float, threshold: int) -> str:
    return f"file {path} is {size} bytes, expected ~{minimum} (tolerance: >= {threshold})"


def _file_exists(c: dict[str, Any], read: ArtifactReader) -> CheckResult:
    path = c["path"]
    content = read(path)
    if content is None:
        return CheckResult("file-exists", False, f"file not found: {path}")
    if c.get("minBytes") is not None:
        threshold = math.floor(c["minBytes"] * 0.75)
        size = byte_size(content)
        if size < threshold:
            return CheckResult(
                "file-exists", False, _size_failure(path, size, c["minBytes"], threshold)
            )
    return CheckResult("file-exists", True, f"file exists: {path}")


def _file_size_gt(c: dict[str, Any], read: ArtifactReader) -> CheckResult:
    path = c["path"]
    content = read(path)
    size = byte_size(content) if content is not None else 0
    minimum = c.get("minBytes") or 0
    threshold = math.floor(minimum * 0.75)
    if size >= threshold:
        return CheckResult("file-size-gt", True, f"file size {size} bytes (target: {minimum})")
    return CheckResult("file-size-gt", False, _size_failure(path, size, minimum, threshold))


def _too_deep(kind: str, path: str) -> CheckResult:
    return CheckResult(kind, False, f"file {path} is nested too deeply to check")


def _file_schema(c: dict[str, Any], read: ArtifactReader) -> CheckResult:
    path = c["path"]
    content = read(path)
    if content is None:
        return CheckResult("file-schema", False, f"file not found: {path}")
    schema = c["schema"] if isinstance(c["schema"], dict) else json.loads(c["schema"])
    # Parsing and validating recurse per nesting level; a submitted artifact can go deeper
    # than the interpreter allows, which is the worker's problem to fix, not a crash.
    try:
        document = json.loads(content)
        error = jsonschema.exceptions.best_match(
            jsonschema.Draft202012Validator(schema).iter_errors(document)
        )
    except json.JSONDecodeError as exc:
        return CheckResult("file-schema", False, f"file {path} is not valid JSON: {exc.msg}")
    except RecursionError:
        return _too_deep("file-schema", path)
    except referencing.exceptions.Unresolvable as exc:
        # Nothing is fetched, so a $ref outside the schema (or to a missing part) never resolves.
        return CheckResult(
            "file-schema", False, f"the schema for {path} has a $ref that cannot be resolved: {exc}"
        )
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        return CheckResult(
            "file-schema", False, f"file {path} does not match schema at {where}: {error.message}"
        )
    return CheckResult("file-schema", True, f"file {path} matches schema")


_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")


def count_progress_items(content: str) -> int:
    """A JSON list (or an object's `items` list) counts its entries; markdown counts list lines."""
    try:
        document = json.loads(content)
    except json.JSONDecodeError:
        return sum(1 for line in content.splitlines() if _LIST_ITEM.match(line))
    if isinstance(document, dict):
        document = document.get("items", [])
    return len(document) if isinstance(document, list) else 0


def _progress_items(c: dict[str, Any], read: ArtifactReader) -> CheckResult:
    path = c["path"]
    content = read(path)
    if content is None:
        return CheckResult("progress-items", False, f"file not found: {path}")
    try:
        count = count_progress_items(content)
    except RecursionError:
        return _too_deep("progress-items", path)
    if count >= c["minItems"]:
        return CheckResult(
            "progress-items", True, f"progress items {count} (target: {c['minItems']})"
        )
    return CheckResult(
        "progress-items", False, f"progress items in {path}: {count}, expected >= {c['minItems']}"
    )


class LogPatternNotSupported(ValueError):
    """A log-scan pattern that is not a regex RE2 can run in linear time."""


_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False  # a refused pattern is answered, not written to stderr


def log_pattern_compile(pattern: str) -> Any:
    """The worker writes both the pattern and the log, so the pattern runs on RE2 (time linear
    in the log) rather than `re`, which can backtrack for ages on `(a+)+$` with the saga
    locked. Constructs that need backtracking (backreferences, lookarounds) are refused.
    Raises LogPatternNotSupported with RE2's reason."""
    try:
        return re2.compile(pattern, _RE2_OPTIONS)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else ""
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise LogPatternNotSupported(str(reason)) from None


def _log_scan(c: dict[str, Any], read: ArtifactReader) -> CheckResult:
    """Passes when the pattern occurs in the log; the failure output is the log's tail."""
    path = c["path"]
    content = read(path)
    if content is None:
        return CheckResult("log-scan", False, f"file not found: {path}")
    pattern = c.get("pattern")
    if not pattern:
        return CheckResult("log-scan", True, f"log-scan: {path} present")
    try:
        compiled = log_pattern_compile(pattern)
    except LogPatternNotSupported as exc:
        return CheckResult("log-scan", False, f"log-scan: /{pattern}/ cannot be run: {exc}")
    for line in content.splitlines():
        if compiled.search(line):
            return CheckResult("log-scan", True, f"log-scan: /{pattern}/ found in {path}", line)
    tail = "\n".join(content.splitlines()[-5:])
    return CheckResult("log-scan", False, f"log-scan: /{pattern}/ not found in {path}", tail)


_RUNNERS: dict[str, Callable[[dict[str, Any], ArtifactReader], CheckResult]] = {
    "file-exists": _file_exists,
    "file-size-gt": _file_size_gt,
    "file-schema": _file_schema,
    "progress-items": _progress_items,
    "log-scan": _log_scan,
}


MAX_DETAIL_CHARS = 500


def _capped(result: CheckResult) -> CheckResult:
    """A detail can quote the artifact (a schema error shows the value); it becomes an issue
    stored in events and the state and repeated in every revision prompt, so keep it short."""
    if len(result.detail) <= MAX_DETAIL_CHARS:
        return result
    return dataclasses.replace(result, detail=result.detail[: MAX_DETAIL_CHARS - 3] + "...")


def run_hard_checks(criteria: list[dict[str, Any]], read: ArtifactReader) -> list[CheckResult]:
    """Run every criterion in order; a kind this platform cannot execute fails, never passes."""
    results = []
    for criterion in criteria:
        kind = criterion.get("kind", "")
        if kind == "free-form":
            results.append(CheckResult(kind, True, "free-form: deferred to evaluator-deep"))
        elif kind in _RUNNERS:
            results.append(_capped(_RUNNERS[kind](criterion, read)))
        else:
            results.append(CheckResult(kind, False, f"kind={kind}: not executed on this platform"))
    return results
