"""Schema $refs that cannot be resolved: rejected with the plan, or failing the check."""

import pytest

from apps.saga import services
from apps.saga.checks import run_hard_checks
from apps.saga.errors import InvalidPlan
from tests.saga.conftest import plan_md, snapshot, stage_md, started


def run(criterion, content):
    return run_hard_checks([criterion], {criterion["path"]: content}.get)[0]


@pytest.mark.parametrize(
    ("ref", "detail"),
    [
        ("#/$defs/missing", "PointerToNowhere: '/$defs/missing' does not exist within"),
        ("https://example.com/item.json", "Unresolvable: https://example.com/item.json"),
    ],
)
def test_file_schema_with_unresolvable_ref_fails_the_check(ref, detail):
    check = run({"kind": "file-schema", "path": "d.json", "schema": {"$ref": ref}}, "[1]")
    assert check.passed is False
    assert check.detail.startswith(
        f"the schema for d.json has a $ref that cannot be resolved: {detail}"
    )


def schema_plan(schema):
    return plan_md(
        stage_md(1, "A", "g", [f"kind: file-schema\n    path: a.json\n    schema: {schema}"])
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("schema", "problem"),
    [
        ('{"$ref": "#/$defs/missing"}', "$ref '#/$defs/missing' cannot be resolved"),
        (
            '{"items": {"$ref": "https://example.com/item.json"}}',
            "$ref 'https://example.com/item.json' cannot be resolved",
        ),
    ],
)
def test_plan_with_unresolvable_schema_ref_is_rejected_at_submission(user, schema, problem):
    saga_id, _ = started(user, profile="curation")
    before = snapshot(saga_id)
    with pytest.raises(InvalidPlan) as caught:
        services.saga_advance(user=user, saga_id=saga_id, plan_yaml=schema_plan(schema))
    assert caught.value.details["problems"] == [
        f"stage-01: done.schema is not a JSON Schema ({problem})"
    ]
    assert snapshot(saga_id) == before


@pytest.mark.django_db
def test_plan_with_schema_ref_inside_the_schema_is_accepted(user):
    saga_id, _ = started(user, profile="curation")
    schema = (
        '{"$defs": {"row": {"type": "object"}}, "type": "array", "items": {"$ref": "#/$defs/row"}}'
    )
    out = services.saga_advance(user=user, saga_id=saga_id, plan_yaml=schema_plan(schema))
    assert out["nextAction"] == "worker_mode_queued"
    out = services.saga_advance(
        user=user,
        saga_id=saga_id,
        worker_finished=True,
        artifacts=[{"path": "a.json", "content": "[1]"}],
    )
    assert (
        out["reason"]
        == "fix-attempt 1: file a.json does not match schema at 0: 1 is not of type 'object'"
    )
