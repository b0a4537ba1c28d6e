"""Text with a NUL character is rejected by name before anything is written (PostgreSQL cannot
store NUL in text or JSON, so it would otherwise fail the call)."""

import pytest

from apps.saga import services
from apps.saga.errors import InvalidArtifact, InvalidInput
from apps.saga.models import Saga
from tests.saga.conftest import finish, simple_plan, snapshot, started

pytestmark = pytest.mark.django_db


def test_goal_with_nul_is_rejected(user):
    with pytest.raises(InvalidInput) as caught:
        services.saga_start(user=user, goal="Write\x00 a report", profile="generic")
    assert caught.value.message == "goal contains a character that cannot be stored (NUL)."
    assert Saga.objects.count() == 0


@pytest.mark.parametrize(
    ("field", "kwargs"),
    [
        ("humanInput", {"human_input": "more\x00"}),
        ("evalResult", {"eval_result": {"passed": False, "issues": ["bad\x00"]}}),
        ("workerDiagnostics", {"worker_diagnostics": {"notes": "x\x00", "errorsCaught": []}}),
        ("workerDiagnostics", {"worker_diagnostics": {"searchedTerms": ["a\x00b"]}}),
    ],
)
def test_advance_input_with_nul_is_rejected_by_name(user, field, kwargs):
    saga_id, _ = started(user, plan=simple_plan(1))
    before = snapshot(saga_id)
    with pytest.raises(InvalidInput) as caught:
        services.saga_advance(user=user, saga_id=saga_id, worker_finished=True, **kwargs)
    assert caught.value.message == f"{field} contains a character that cannot be stored (NUL)."
    assert snapshot(saga_id) == before


def test_plan_with_nul_is_rejected(user):
    saga_id, _ = started(user)
    before = snapshot(saga_id)
    plan = simple_plan(1).replace("Part 1", "Part\x00 1")
    with pytest.raises(InvalidInput) as caught:
        services.saga_advance(user=user, saga_id=saga_id, plan_yaml=plan)
    assert caught.value.message == "planYaml contains a character that cannot be stored (NUL)."
    assert snapshot(saga_id) == before


def test_artifact_content_with_nul_is_rejected_by_path(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    before = snapshot(saga_id)
    with pytest.raises(InvalidArtifact) as caught:
        finish(user, saga_id, "part1.md", content="bin\x00ary")
    assert caught.value.message == (
        "Artifact 'part1.md' contains a character that cannot be stored (NUL)."
    )
    assert snapshot(saga_id) == before


def test_cancel_reason_with_nul_is_rejected(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    with pytest.raises(InvalidInput) as caught:
        services.saga_cancel(user=user, saga_id=saga_id, reason="done\x00")
    assert caught.value.message == "reason contains a character that cannot be stored (NUL)."
    assert Saga.objects.get(key=saga_id).state["termination"] is None
