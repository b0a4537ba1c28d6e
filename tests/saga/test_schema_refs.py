"""A file-schema check whose schema $ref cannot be resolved fails the check, not the call."""

import pytest

from apps.saga.checks import run_hard_checks


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
