import pytest

from apps.saga import planparse
from apps.saga.errors import InvalidPlan
from apps.saga.planparse import (
    artifact_path_ok,
    criterion_normalize,
    plan_feedback,
    plan_missing_fields,
    plan_parse,
    plan_validate,
    stage_from_object,
)
from apps.saga.profiles import get_profile

FULL = """# Plan
## Summary
Collect sources,
then write.

## Stage 1: Gather sources
Goal: find ten sources

```yaml
id: ignored
done:
  - kind: file-size-gt
    path: sources.md
    minSize: 2000
  - kind: free-form
    description: "sources are recent"
evaluator: deep
```

### Notes (does not split)

## Stage 2 Write up
Goal: write the report
```yml
done:
  - kind: file-exists
    file: report.md
```
"""


def test_full_plan():
    plan = plan_parse(FULL, default_mode="auto")
    assert plan["summary"] == "Collect sources, then write."
    assert plan["stages"] == [
        {
            "id": "stage-01",
            "title": "Gather sources",
            "goal": "find ten sources",
            "doneCriteria": [
                {"kind": "file-size-gt", "path": "sources.md", "minBytes": 2000},
                {"kind": "free-form", "desc": '"sources are recent"'},
            ],
            "evaluatorMode": "deep",
        },
        {
            "id": "stage-02",
            "title": "Write up",
            "goal": "write the report",
            "doneCriteria": [{"kind": "file-exists", "path": "report.md"}],
            "evaluatorMode": "auto",
        },
    ]


def test_empty_input_gives_zero_stages():
    assert plan_parse("", default_mode="auto") == {"summary": "", "stages": []}


def test_stage_without_yaml_is_dropped_and_later_heading_with_yaml_counts():
    text = (
        "## Stage 1: No yaml\nGoal: x\n\n"
        "## Stage 2: Real\n```yaml\ndone:\n  - kind: free-form\n```\n"
        "## Extra\n```yaml\ndone:\n  - kind: file-exists\n    path: e.md\n```\n"
    )
    stages = plan_parse(text)["stages"]
    assert [(s["id"], s["title"]) for s in stages] == [
        ("stage-01", "Real"),
        ("stage-02", "Stage 2"),
    ]


def test_junk_yaml_falls_back_to_free_form():
    stages = plan_parse("## Stage 1: Junk\n```yaml\n{{{ not yaml ]]\n```\n")["stages"]
    assert stages[0]["doneCriteria"] == [
        {"kind": "free-form", "desc": "Stage stage-01 — no machine-checkable criteria"}
    ]


def test_profile_default_mode_when_evaluator_missing_or_odd():
    text = "## Stage 1: A\n```yaml\ndone:\n  - kind: free-form\nevaluator: Deep\n```\n"
    assert plan_parse(text, default_mode="deep")["stages"][0]["evaluatorMode"] == "deep"
    assert plan_parse(text, default_mode="auto")["stages"][0]["evaluatorMode"] == "auto"


def test_parse_failure_degrades_to_deep_free_form_stage(monkeypatch):
    def boom(*args):
        raise ValueError("bad")

    monkeypatch.setattr(planparse, "_stage_from_chunk", boom)
    stage = plan_parse("## Stage 1: A\n```yaml\ndone:\n```\n")["stages"][0]
    assert stage["goal"].startswith("Goal could not be parsed")
    assert stage["evaluatorMode"] == "deep"
    assert [c["kind"] for c in stage["doneCriteria"]] == ["free-form"]


def test_long_summary_is_cut():
    plan = plan_parse("## Summary\nhead\n" + "x" * 600 + "\n## Stage 1\n```yaml\ndone:\n```\n")
    assert len(plan["summary"]) == 500 and plan["summary"].endswith("...")


def test_non_object_item_and_later_evaluator_line():
    text = (
        "## Stage 1: A\n```yaml\ndone:\n  - just text\n"
        "  - kind: log-scan\n    path: l.log\nevaluator: auto\n```\n"
    )
    stage = plan_parse(text, default_mode="deep")["stages"][0]
    assert stage["doneCriteria"] == [
        {"kind": "free-form", "desc": "just text"},
        {"kind": "log-scan", "path": "l.log"},
    ]
    assert stage["evaluatorMode"] == "auto"


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        (
            {"kind": "file-exists", "filePath": "a", "bytes": "10"},
            {"kind": "file-exists", "path": "a", "minBytes": 10},
        ),
        (
            {"kind": "file-size-gt", "location": "a", "threshold": 5.5},
            {"kind": "file-size-gt", "path": "a", "minBytes": 5.5},
        ),
        (
            {"kind": "file-size-gt", "file": "a", "sizeMin": 3},
            {"kind": "file-size-gt", "path": "a", "minBytes": 3},
        ),
        (
            {"kind": "file-size-gt", "path": "a", "min-size": "7"},
            {"kind": "file-size-gt", "path": "a", "minBytes": 7},
        ),
        ({"kind": "command", "shell": "ls"}, {"kind": "command", "command": "ls"}),
        ({"kind": "command", "run": "ls"}, {"kind": "command", "command": "ls"}),
        (
            {"kind": "log-scan", "path": "l", "regex": "ok"},
            {"kind": "log-scan", "path": "l", "pattern": "ok"},
        ),
        (
            {"kind": "log-scan", "path": "l", "query": "ok"},
            {"kind": "log-scan", "path": "l", "pattern": "ok"},
        ),
        ({"desc": "x"}, {"kind": "free-form", "desc": "x"}),
        ({"kind": "free-form", "prompt": "p"}, {"kind": "free-form", "desc": "p"}),
        ({"kind": "free-form", "criteria": "c"}, {"kind": "free-form", "desc": "c"}),
        ({"kind": "free-form", "text": "t"}, {"kind": "free-form", "desc": "t"}),
        (
            {"kind": "progress-items", "path": "p", "count": "3"},
            {"kind": "progress-items", "path": "p", "minItems": 3},
        ),
        ({"kind": "metrics", "foo": 1}, {"kind": "metrics", "foo": 1}),
        ({"kind": "File-Exists", "path": "a"}, {"kind": "File-Exists", "path": "a"}),
        (42, {"kind": "free-form", "desc": "42"}),
    ],
)
def test_criterion_aliases(item, expected):
    assert criterion_normalize(item) == expected


def test_stage_object_aliases_and_defaults():
    stage = stage_from_object(
        {"name": "N", "objective": "O", "done-criteria": [{"kind": "file-exists", "path": "x"}]},
        index=3,
        default_mode="deep",
    )
    assert stage == {
        "id": "stage-03",
        "title": "N",
        "goal": "O",
        "doneCriteria": [{"kind": "file-exists", "path": "x"}],
        "evaluatorMode": "deep",
    }
    empty = stage_from_object({}, index=1, default_mode="auto")
    assert (empty["title"], empty["goal"]) == ("Stage 1", "")
    assert empty["doneCriteria"][0]["kind"] == "free-form"


def test_missing_fields_report_and_feedback():
    text = "## Stage 1: A\n```yaml\ndone:\n  - kind: file-size-gt\n  - kind: command\n```\n"
    missing = plan_missing_fields(plan_parse(text))
    assert missing == [
        "stage-01: goal",
        "stage-01: done.path",
        "stage-01: done.minBytes",
        "stage-01: done.command",
    ]
    assert plan_feedback(missing).endswith(
        "Please revise the plan and resubmit it with saga_advance(planYaml=...)."
    )


def test_validate_accepts_schema_and_parses_it():
    text = (
        "## Stage 1: A\nGoal: g\n```yaml\ndone:\n  - kind: file-schema\n    path: a.json\n"
        '    schema: {"type": "array", "minItems": 1}\n```\n'
    )
    plan = plan_parse(text)
    plan_validate(plan, profile=get_profile("curation"))
    assert plan["stages"][0]["doneCriteria"][0]["schema"] == {"type": "array", "minItems": 1}


def test_validate_reports_every_problem():
    text = (
        "## Stage 1: A\n```yaml\ndone:\n  - kind: file-schema\n    path: a.json\n    schema: nope\n"
        "  - kind: browser\n```\n"
    )
    with pytest.raises(InvalidPlan) as info:
        plan_validate(plan_parse(text), profile=get_profile("curation"))
    problems = info.value.details["problems"]
    assert problems[1] == "stage-01: kind 'browser' is not executed on this platform"
    assert problems[0].startswith("stage-01: done.schema is not a JSON Schema")


@pytest.mark.parametrize(
    ("path", "ok"),
    [
        ("a/b.md", True),
        ("/abs", False),
        ("..", False),
        ("a/../b", False),
        ("a\\..\\b", False),
        ("C:/x", False),
        ("", False),
        ("a..b.md", True),
        ("x" * 256, False),
    ],
)
def test_artifact_paths(path, ok):
    assert artifact_path_ok(path) is ok


def test_validate_refuses_a_log_scan_pattern_that_needs_backtracking(monkeypatch):
    profile = get_profile("generic")
    monkeypatch.setitem(
        profile.data, "allowedCheckKinds", [*profile.data["allowedCheckKinds"], "log-scan"]
    )
    text = (
        "## Stage 1: A\n```yaml\ndone:\n  - kind: log-scan\n    path: run.log\n"
        "    pattern: (?<=ok)done\n```\n"
    )
    with pytest.raises(InvalidPlan) as info:
        plan_validate(plan_parse(text), profile=profile)
    assert info.value.details["problems"] == [
        "stage-01: done.pattern is not a regex RE2 can run (invalid perl operator: (?<=)"
    ]
