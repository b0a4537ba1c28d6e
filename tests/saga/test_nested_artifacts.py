"""JSON artifacts nested deeper than the checks can follow fail the check, not the call."""

import pytest

from apps.saga import services
from apps.saga.checks import run_hard_checks
from tests.saga.conftest import plan_md, stage_md, started

NESTED = "[" * 100_000 + "]" * 100_000
# Shallow enough to parse, deep enough to exhaust recursion while validating.
NESTED_PARSEABLE = "[" * 900 + "]" * 900
SELF_SCHEMA = {"type": "array", "items": {"$ref": "#"}}


def run(criterion, content):
    return run_hard_checks([criterion], {criterion["path"]: content}.get)[0]


def test_file_schema_fails_on_json_nested_too_deeply_to_parse():
    check = run({"kind": "file-schema", "path": "d.json", "schema": SELF_SCHEMA}, NESTED)
    assert (check.passed, check.detail) == (False, "file d.json is nested too deeply to check")


def test_file_schema_fails_on_json_nested_too_deeply_to_validate():
    check = run({"kind": "file-schema", "path": "d.json", "schema": SELF_SCHEMA}, NESTED_PARSEABLE)
    assert (check.passed, check.detail) == (False, "file d.json is nested too deeply to check")


def test_progress_items_fails_on_json_nested_too_deeply_to_parse():
    check = run({"kind": "progress-items", "path": "p.json", "minItems": 1}, NESTED)
    assert (check.passed, check.detail) == (False, "file p.json is nested too deeply to check")


@pytest.mark.django_db
def test_deeply_nested_artifact_queues_a_revision(user):
    plan = plan_md(
        stage_md(
            1, "Data", "write data", ["kind: progress-items\n    path: p.json\n    minItems: 1"]
        )
    )
    saga_id, _ = started(user, profile="research", plan=plan)

    out = services.saga_advance(
        user=user,
        saga_id=saga_id,
        worker_finished=True,
        artifacts=[{"path": "p.json", "content": NESTED}],
    )

    assert out["nextAction"] == "revision_queued"
    assert out["reason"] == "fix-attempt 1: file p.json is nested too deeply to check"
