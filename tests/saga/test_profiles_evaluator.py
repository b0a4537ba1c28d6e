import json

import pytest

from apps.saga.evaluator import (
    artifacts_text,
    criteria_text,
    deep_eval_prompt,
    verdict_coerce,
    verdict_parse_text,
)
from apps.saga.profiles import (
    DATA_DIR,
    EXECUTABLE_KINDS,
    KNOWN_KINDS,
    PROFILE_IDS,
    checklist_errors,
    get_profile,
)
from apps.saga.state import required_artifacts

SPEC = {
    # id: (default eval, allowed kinds, stage range, clarification rounds, intensity,
    #      hard titles, soft weights)
    "ops": (
        "deep",
        ["command", "file-exists", "free-form"],
        [2, 5],
        2,
        "deep",
        ["Diagnosis grounded", "Remediation reversible", "Memory write"],
        [0.4, 0.3, 0.2, 0.1],
    ),
    "research": (
        "deep",
        ["file-exists", "file-size-gt", "progress-items", "free-form"],
        [2, 5],
        2,
        "deep",
        ["Citations present", "Completeness", "Factual specificity (>=5 facts)"],
        [0.3, 0.3, 0.2, 0.2],
    ),
    "curation": (
        "auto",
        ["file-exists", "file-size-gt", "file-schema", "free-form"],
        [2, 4],
        1,
        "standard",
        ["Schema compliance", "Coverage (>=0.95)", "Scores calibrated"],
        [0.3, 0.3, 0.2, 0.2],
    ),
    "review": (
        "deep",
        ["file-exists", "free-form"],
        [2, 5],
        1,
        "deep",
        ["Findings cite artifact", "Severity assigned", "Coverage stated"],
        [0.4, 0.2, 0.2, 0.2],
    ),
    "generic": (
        "auto",
        ["file-exists", "file-size-gt", "command", "file-schema", "progress-items", "free-form"],
        [2, 4],
        1,
        "light",
        ["Goal addressed", "Self-contained", "Done-criteria match"],
        [0.3, 0.3, 0.2, 0.2],
    ),
}


def test_registry_has_five_profiles():
    assert PROFILE_IDS == ("ops", "research", "curation", "review", "generic")
    assert sorted(p.stem for p in (DATA_DIR / "profiles").glob("*.json")) == sorted(PROFILE_IDS)


@pytest.mark.parametrize("pid", PROFILE_IDS)
def test_profile_is_complete(pid):
    profile = get_profile(pid)
    mode, kinds, stage_range, rounds, intensity, titles, weights = SPEC[pid]
    data = profile.data
    assert (profile.default_evaluator_mode, list(profile.allowed_kinds)) == (mode, kinds)
    assert (list(profile.stage_range), profile.default_clarification_rounds) == (
        stage_range,
        rounds,
    )
    assert data["evaluator"]["intensity"] == intensity
    assert data["evaluator"]["requireExternalCheck"] is (pid == "review")
    assert [h["title"] for h in profile.checklist["hard"]] == titles
    assert [h["id"] for h in profile.checklist["hard"]] == ["H1", "H2", "H3"]
    assert [s["id"] for s in profile.checklist["soft"]] == ["S1", "S2", "S3", "S4"]
    assert [s["weight"] for s in profile.checklist["soft"]] == weights
    assert abs(sum(weights) - 1) < 0.05
    assert checklist_errors(profile.checklist) == []
    for key in (
        "version",
        "description",
        "assumedModel",
        "strategy",
        "progressSchema",
        "contractTemplate",
        "invariants",
        "recovery",
        "budget",
        "benchGoal",
    ):
        assert data[key], key
    assert ("bootstrap" in data) is (pid != "ops")
    assert data["id"] == data["domain"] == pid
    assert set(profile.allowed_kinds) <= KNOWN_KINDS
    assert len(profile.clarification_rounds) == rounds
    assert all(q.endswith("?") for rnd in profile.clarification_rounds for q in rnd)
    for section in ("## PASS", "## FAIL-REWORK", "## FAIL-ESCALATE", "Boundary rule"):
        assert section in profile.few_shot
    assert profile.worker_tool_hint.startswith(f"### Tool hints ({pid})")
    assert f"# Example {pid} plan" in profile.planner_examples


@pytest.mark.parametrize("pid", PROFILE_IDS)
def test_planner_example_is_a_valid_plan_for_its_profile(pid):
    from apps.saga.planparse import plan_parse, plan_validate

    profile = get_profile(pid)
    plan = plan_parse(profile.planner_examples, default_mode=profile.default_evaluator_mode)
    assert len(plan["stages"]) == 2
    plan_validate(plan, profile=profile)
    assert {c["kind"] for s in plan["stages"] for c in s["doneCriteria"]} <= EXECUTABLE_KINDS


def test_checklist_validation_names_problems():
    bad = {
        "hard": [
            {"id": "X1"},
            {"id": "H2", "title": "t", "pass": "p", "failRework": "", "failEscalate": "e"},
        ],
        "soft": [{"id": "S1", "weight": 2, "title": "t", "scoringGuide": "g"}],
    }
    assert checklist_errors(bad) == [
        "hard item id 'X1' must match H<n>",
        "H2: failRework is empty",
        "S1: weight must be a number from 0 to 1",
    ]
    assert checklist_errors({"hard": [], "soft": []}) == [
        "checklist.hard needs at least one item",
        "checklist.soft needs at least one item",
    ]


@pytest.mark.parametrize("pid", ["research", "ops", "review", "curation", "generic"])
def test_deep_prompt_contains_every_checklist_element(pid):
    profile = get_profile(pid)
    stage = {
        "id": "stage-02",
        "title": "T",
        "goal": "G",
        "doneCriteria": [
            {"kind": "file-exists", "path": "a.md"},
            {"kind": "free-form", "desc": "good"},
        ],
    }
    prompt = deep_eval_prompt(stage=stage, profile=profile, read={"a.md": "CONTENT"}.get)
    assert "Id: stage-02" in prompt and "Goal: G" in prompt
    assert "- kind: file-exists, path: a.md\n- kind: free-form, desc: good" in prompt
    assert "--- a.md ---\nCONTENT" in prompt
    assert profile.few_shot.strip() in prompt
    for item in profile.checklist["hard"]:
        assert f"**{item['id']} — {item['title']}**" in prompt
        for key in ("pass", "failRework", "failEscalate"):
            assert item[key] in prompt
    for item in profile.checklist["soft"]:
        assert f"**{item['id']} — {item['title']}** (weight {item['weight']})" in prompt
        assert item["scoringGuide"] in prompt
    template = prompt.split("```json\n")[1].split("\n```")[0]
    filled = json.loads(template)
    filled["passed"] = True
    assert verdict_parse_text(json.dumps(filled))["passed"] is True


def test_prompt_without_artifacts():
    stage = {
        "id": "s",
        "title": "T",
        "goal": "G",
        "doneCriteria": [{"kind": "file-exists", "path": "x"}],
    }
    assert "(No artifacts found)" in deep_eval_prompt(
        stage=stage, profile=get_profile("review"), read={}.get
    )


def test_verdict_parser_variants():
    fenced = '```json\n{"passed": true, "score": 4.2, "issues": [], "escalate": false}\n```'
    assert verdict_parse_text(fenced) == {
        "passed": True,
        "score": 4.2,
        "issues": [],
        "escalate": False,
    }
    prose = 'Here is my verdict: {"passed": false, "issues": ["H1", 3]} as requested.'
    assert verdict_parse_text(prose)["issues"] == ["H1", "3"]
    assert verdict_parse_text("no json at all")["issues"] == [
        "Deep evaluator output was not valid JSON"
    ]
    truncated = '{"passed": true, "issues": ['
    assert verdict_parse_text(truncated)["issues"] == ["Deep evaluator output was not valid JSON"]
    assert verdict_parse_text('{"passed": true, "issues": [} tail')["issues"] == [
        "Failed to parse deep evaluator JSON"
    ]


def test_verdict_coercion():
    assert verdict_coerce({"passed": False, "score": "high", "issues": None}) == {
        "passed": False,
        "score": None,
        "issues": [],
        "escalate": False,
    }
    assert verdict_coerce({"passed": True, "score": True})["score"] is None


# Every kind that checks a file: its path, content and parameters reach worker and evaluator.
FILE_CRITERIA = [
    {"kind": "file-size-gt", "path": "r.md", "minBytes": 400},
    {"kind": "progress-items", "path": "sources.md", "minItems": 2},
    {"kind": "file-schema", "path": "labels.json", "schema": {"type": "array"}},
    {"kind": "log-scan", "path": "run.log", "pattern": "^OK"},
    {"kind": "file-exists", "path": "sources.md"},
    {"kind": "free-form", "desc": "cites sources"},
]


def test_criteria_text_shows_every_parameter():
    assert criteria_text(FILE_CRITERIA) == (
        "- kind: file-size-gt, path: r.md, minBytes: 400\n"
        "- kind: progress-items, path: sources.md, minItems: 2\n"
        '- kind: file-schema, path: labels.json, schema: {"type":"array"}\n'
        "- kind: log-scan, path: run.log, pattern: ^OK\n"
        "- kind: file-exists, path: sources.md\n"
        "- kind: free-form, desc: cites sources"
    )


def test_artifacts_text_includes_every_checked_path_once():
    files = {"sources.md": "- a\n- b", "labels.json": "[]", "run.log": "OK"}
    assert artifacts_text(FILE_CRITERIA, files.get) == (
        "--- sources.md ---\n- a\n- b\n\n--- labels.json ---\n[]\n\n--- run.log ---\nOK"
    )


def test_required_artifacts_cover_every_checked_path():
    assert required_artifacts(FILE_CRITERIA) == [
        "- r.md (min 400 bytes)",
        "- sources.md (at least 2 items: list lines or a JSON list)",
        '- labels.json (JSON matching this JSON Schema: {"type":"array"})',
        "- run.log (a line must match /^OK/)",
    ]


def test_lenient_parse_keeps_a_verdict_with_too_many_issues_but_cuts_them():
    reply = json.dumps({"passed": True, "score": 4, "issues": ["i" * 3000] * 60})
    assert verdict_parse_text(reply) == {
        "passed": True,
        "score": 4,
        "issues": ["i" * 1997 + "..."] * 50,
        "escalate": False,
    }


def test_deep_eval_prompt_cuts_long_artifacts_and_tells_the_evaluator():
    names = ["a.md", "b.md", "c.md", "d.md", "e.md", "f.md", "g.md"]
    files = {name: name[0] * 20_000 for name in names}
    files.update({"a.md": "a" * 30_000, "b.md": "short", "g.md": "tail"})
    stage = {
        "id": "stage-01",
        "title": "T",
        "goal": "G",
        "doneCriteria": [{"kind": "file-exists", "path": name} for name in names],
    }
    prompt = deep_eval_prompt(stage=stage, profile=get_profile("research"), read=files.get)
    output = prompt.split("## Output\n")[1].split("\n\n## Few-shot calibration")[0]
    # At most 20,000 characters of one artifact and 100,000 of all of them reach the prompt.
    assert output == (
        "--- a.md (truncated: first 20000 of 30000 characters shown) ---\n"
        + "a" * 20_000
        + "\n[... 10000 more characters of a.md not shown ...]\n\n"
        "--- b.md ---\nshort\n\n"
        + "".join(f"--- {n}.md ---\n" + n * 20_000 + "\n\n" for n in "cde")
        + "--- f.md (truncated: first 19995 of 20000 characters shown) ---\n"
        + "f" * 19_995
        + "\n[... 5 more characters of f.md not shown ...]\n\n"
        "--- g.md (omitted: 4 characters; the prompt has no room left for artifacts) ---"
    )
