import pytest

from apps.saga.checks import (
    CheckResult,
    check_traits,
    count_progress_items,
    partition_criteria,
    run_hard_checks,
)
from apps.saga.profiles import KNOWN_KINDS
from apps.saga.recovery import (
    classify_root_cause,
    classify_runtime_error,
    classify_source_unavailable,
    collapse_evaluations,
    layer_reason,
    matches_model_limit,
    microcompact,
    recovery_layer,
)

FILES = {
    "a.md": "x" * 100,
    "u.md": "é" * 40,
    "d.json": '{"items": [1, 2, 3]}',
    "list.md": "- a\n* b\n1. c\nplain",
    "bad.json": "{",
    "log.txt": "start\nERROR 403 denied\nend",
}


def run(*criteria):
    return run_hard_checks(list(criteria), FILES.get)


def test_file_exists_and_size_in_utf8_bytes():
    assert run({"kind": "file-exists", "path": "a.md"})[0] == CheckResult(
        "file-exists", True, "file exists: a.md"
    )
    assert run({"kind": "file-exists", "path": "no.md"})[0].detail == "file not found: no.md"
    # 40 "é" are 80 UTF-8 bytes: below 0.75 x 120 = 90.
    failed = run({"kind": "file-exists", "path": "u.md", "minBytes": 120})[0]
    assert failed.detail == "file u.md is 80 bytes, expected ~120 (tolerance: >= 90)"
    assert run({"kind": "file-size-gt", "path": "u.md", "minBytes": 100})[0].detail == (
        "file size 80 bytes (target: 100)"
    )
    assert run({"kind": "file-size-gt", "path": "no.md", "minBytes": 4})[0].passed is False


def test_file_schema():
    schema = {"type": "object", "required": ["items"]}
    assert run({"kind": "file-schema", "path": "d.json", "schema": schema})[0].passed
    bad = run(
        {
            "kind": "file-schema",
            "path": "d.json",
            "schema": {"type": "object", "properties": {"items": {"maxItems": 2}}},
        }
    )[0]
    assert bad.detail == "file d.json does not match schema at items: [1, 2, 3] is too long"
    assert run({"kind": "file-schema", "path": "bad.json", "schema": schema})[0].detail.startswith(
        "file bad.json is not valid JSON"
    )


def test_progress_items_and_log_scan():
    assert count_progress_items(FILES["list.md"]) == 3
    assert count_progress_items(FILES["d.json"]) == 3
    assert run({"kind": "progress-items", "path": "list.md", "minItems": 3})[0].passed
    assert run({"kind": "progress-items", "path": "list.md", "minItems": 4})[0].detail == (
        "progress items in list.md: 3, expected >= 4"
    )
    hit = run({"kind": "log-scan", "path": "log.txt", "pattern": "ERROR"})[0]
    assert (hit.passed, hit.output) == (True, "ERROR 403 denied")
    miss = run({"kind": "log-scan", "path": "log.txt", "pattern": "DONE"})[0]
    assert (miss.passed, miss.output) == (False, FILES["log.txt"])


def test_free_form_passes_and_unexecutable_kinds_fail():
    results = run({"kind": "free-form"}, {"kind": "command", "command": "ls"}, {"kind": "zzz"})
    assert [(r.passed, r.detail) for r in results] == [
        (True, "free-form: deferred to evaluator-deep"),
        (False, "kind=command: not executed on this platform"),
        (False, "kind=zzz: not executed on this platform"),
    ]


def test_traits_and_partition():
    assert (check_traits("command").read_only, check_traits("command").concurrency_safe) == (
        False,
        False,
    )
    assert (check_traits("browser").read_only, check_traits("browser").concurrency_safe) == (
        True,
        False,
    )
    kinds = ["file-exists", "command", "browser", "mystery", "free-form"]
    read_only, write = partition_criteria([{"kind": k} for k in kinds], known=KNOWN_KINDS)
    assert (len(read_only), len(write)) == (3, 2)


@pytest.mark.parametrize(
    ("attempts", "method", "number", "action"),
    [
        (0, "fix-attempt", 0, "revision_queued"),
        (1, "fix-attempt", 1, "revision_queued"),
        (2, "microcompact-retry", 2, "revision_queued"),
        (3, "full-rework", 3, "worker_mode_queued"),
        (4, "terminal", 4, "terminated"),
        (9, "terminal", 4, "terminated"),
    ],
)
def test_layers(attempts, method, number, action):
    layer = recovery_layer(attempts)
    assert (layer.method, layer.number, layer.next_action) == (method, number, action)


def test_layer_reasons_use_first_three_issues():
    issues = ["a", "b", "c", "d"]
    assert layer_reason(recovery_layer(0), 1, issues) == "fix-attempt 1: a; b; c"
    assert (
        layer_reason(recovery_layer(3), 4, issues)
        == "full-rework 4: resetting stage. Issues: a; b; c"
    )
    assert layer_reason(recovery_layer(4), 4, issues) == "All 4 recovery layers exhausted: a; b; c"


def test_microcompact_and_collapse():
    compact = microcompact({"passed": False, "score": 2, "issues": ["x" * 300], "stageId": "s1"})
    assert len(compact["summary"]) == 200 and compact["summary"].endswith("...")
    assert (compact["verdict"], compact["pointer"]) == ("rework", "see-original-at-s1-eval.json")
    assert microcompact({"summary": "short", "details": "d"})["summary"] == "short"
    evals = [{"stageIndex": i, "stageId": f"s{i}", "passed": True, "issues": []} for i in range(6)]
    collapsed = collapse_evaluations(evals, cursor=5)
    assert collapsed[0] == "s0: passed" and collapsed[1] == "s1: passed"
    assert collapsed[2]["verdict"] == "passed" and "pointer" in collapsed[3]
    assert collapsed[4] is evals[4] and collapsed[5] is evals[5]


def test_source_unavailable_reads_only_output_and_diagnostics():
    size_fail = CheckResult("file-size-gt", False, "file forbidden.md is 403 bytes, expected ~900")
    assert classify_source_unavailable(failed=[size_fail], diagnostics=None) is None
    log_fail = CheckResult("log-scan", False, "not found", "HTTP 404 on fetch")
    assert classify_source_unavailable(failed=[log_fail], diagnostics=None) == (
        "Source unavailable (404): HTTP 404 on fetch"
    )
    for text in ("Login required", "rate limit hit", "Access denied", "unauthorized"):
        assert classify_source_unavailable(failed=[], diagnostics={"notes": text})
    assert (
        classify_source_unavailable(failed=[], diagnostics={"errorsCaught": ["oops 4030"]}) is None
    )


def test_model_limit_patterns():
    for issue in (
        "Output too long",
        "context window exceeded",
        "token limit",
        "maximum output",
        "cannot complete this",
    ):
        assert matches_model_limit([issue])
    assert not matches_model_limit(["missing citations"])


def test_root_cause():
    short = [
        CheckResult("file-size-gt", False, "file a is 3 bytes, expected ~100 (tolerance: >= 75)")
    ]
    assert classify_root_cause(checks=short, diagnostics={"errorsCaught": ["ECONNRESET"]}).kind == (
        "network_transient"
    )
    info = classify_root_cause(
        checks=short,
        diagnostics={
            "searchedTerms": ["q1"],
            "urlsAttempted": [{"url": "u", "status": 503}, {"status": "No results"}],
        },
    )
    assert (info.kind, info.strategy) == ("information_unavailable", "awaiting_human")
    assert "Searched: q1." in info.message
    unknown = classify_root_cause(checks=short, diagnostics={"urlsAttempted": [{"status": 404}]})
    assert "Searched: (unknown)." in unknown.message
    mixed = classify_root_cause(checks=short, diagnostics={"urlsAttempted": [{"status": 200}]})
    assert mixed.kind == "quality_insufficient"
    no_size = classify_root_cause(
        checks=[CheckResult("file-exists", False, "file not found: a")],
        diagnostics={"urlsAttempted": [{"status": 404}]},
    )
    assert no_size.kind == "quality_insufficient"


def test_runtime_error_classifier():
    assert classify_runtime_error("Planner failed to plan") == "plan_rejected"
    assert classify_runtime_error("plan looks fine") == "recoverable"
    assert classify_runtime_error("unable to connect") == "recoverable"


def _runs_within(code, seconds=30):
    """Run code in a fresh interpreter; False when it is still running after `seconds`."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    try:
        done = subprocess.run(  # noqa: S603 - our own interpreter on our own code
            [sys.executable, "-c", code], cwd=root, timeout=seconds, capture_output=True, text=True
        )
    except subprocess.TimeoutExpired:
        return False
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout


def test_a_long_digit_run_in_a_check_detail_is_classified_promptly():
    # A file-schema detail quotes the artifact's value: a 1 MiB string of digits. Scanning it
    # for "<digits> bytes, expected" from every digit took time quadratic in its length.
    code = (
        "from apps.saga.checks import CheckResult\n"
        "from apps.saga.recovery import classify_root_cause\n"
        "detail = repr('1' * 1_000_000) + \" is not of type 'integer'\"\n"
        "checks = [CheckResult('file-schema', False, detail)]\n"
        "diag = {'urlsAttempted': [{'url': 'u', 'status': 404}], 'searchedTerms': ['x']}\n"
        "print(classify_root_cause(checks=checks, diagnostics=diag).kind)\n"
    )
    assert _runs_within(code) == "quality_insufficient\n"


def test_size_shortfall_still_routes_to_a_human():
    detail = "file a.md is 1203 bytes, expected ~2000 (tolerance: >= 1500)"
    cause = classify_root_cause(
        checks=[CheckResult("file-size-gt", False, detail)],
        diagnostics={"urlsAttempted": [{"url": "u", "status": 404}], "searchedTerms": ["x"]},
    )
    assert cause.kind == "information_unavailable"


def test_a_failed_check_quotes_at_most_500_characters_of_the_artifact():
    # The detail becomes an issue: stored in the event, the state and every revision prompt.
    files = {"big.json": '"' + "x" * 100_000 + '"'}
    check = {"kind": "file-schema", "path": "big.json", "schema": {"type": "integer"}}
    result = run_hard_checks([check], files.get)[0]
    prefix = "file big.json does not match schema at (root): '"
    assert result.passed is False
    assert result.detail == prefix + "x" * (497 - len(prefix)) + "..."


def test_log_scan_with_a_nested_quantifier_finishes_on_a_crafted_log():
    # The worker writes both the pattern and the log. With backtracking, (a+)+$ on a line of
    # 5,000 'a's and a '!' tries about 2**5000 ways to split the run before failing.
    crafted = (
        "from apps.saga.checks import run_hard_checks\n"
        "log = 'a' * 5000 + '!'\n"
        "c = {'kind': 'log-scan', 'path': 'run.log', 'pattern': '(a+)+$'}\n"
        "print(run_hard_checks([c], {'run.log': log}.get)[0].passed)\n"
    )
    assert _runs_within(crafted) == "False\n"


@pytest.mark.parametrize(
    "pattern",
    [
        "ERROR",
        "^OK",
        "done$",
        r"\bfail(ed)?\b",
        "(?i)error",
        r"\d+ bytes",
        "(ab|a)*c",
        "a{2,3}b",
        "[^a-c]x",
        r"^\s*$",
        r"[-+]?\d*\.\d+",
    ],
)
def test_log_scan_finds_what_a_python_regex_finds(pattern):
    import re

    lines = ["OK go", "x ERROR y", "it failed", "Failed!", "run done", "ab", "aab", "abac",
             "  ", "dx", "5 bytes", "-1.5", "error: Error", "aaab", "ok"]  # fmt: skip
    for line in lines:
        found = run_hard_checks(
            [{"kind": "log-scan", "path": "l", "pattern": pattern}], {"l": line}.get
        )[0].passed
        assert found is bool(re.search(pattern, line)), (pattern, line)


def test_log_scan_with_a_backreference_fails_with_the_reason():
    result = run({"kind": "log-scan", "path": "log.txt", "pattern": r"(E)\1"})[0]
    assert (result.passed, result.detail) == (
        False,
        r"log-scan: /(E)\1/ cannot be run: invalid escape sequence: \1",
    )
