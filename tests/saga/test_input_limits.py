"""Over-long inputs are rejected with the limit they exceed."""

import pytest

from apps.saga import services
from apps.saga.errors import ArtifactsTooLarge, InvalidInput, InvalidVerdict
from apps.saga.models import SagaArtifact
from tests.saga.conftest import finish, simple_plan, snapshot, started

pytestmark = pytest.mark.django_db


def test_over_long_human_input_names_the_limit(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    before = snapshot(saga_id)
    with pytest.raises(InvalidInput) as caught:
        services.saga_advance(
            user=user, saga_id=saga_id, human_input="x" * (services.MAX_HUMAN_INPUT_CHARS + 1)
        )
    assert caught.value.message == "humanInput is longer than 20000 characters."
    assert snapshot(saga_id) == before


def test_over_long_plan_names_the_limit(user):
    saga_id, _ = started(user)
    before = snapshot(saga_id)
    with pytest.raises(InvalidInput) as caught:
        services.saga_advance(
            user=user, saga_id=saga_id, plan_yaml="x" * (services.MAX_PLAN_CHARS + 1)
        )
    assert caught.value.message == "planYaml is longer than 200000 characters."
    assert snapshot(saga_id) == before


def _deep_pending(user):
    saga_id, _ = started(user, plan=simple_plan(1, evaluator="deep"))
    out = finish(user, saga_id, "part1.md")
    assert out["nextAction"] == "eval_deep_required"
    return saga_id


def _refused_verdict(user, issues) -> InvalidVerdict:
    """A failing deep verdict with `issues` is refused and leaves the saga as it was."""
    saga_id = _deep_pending(user)
    before = snapshot(saga_id)
    with pytest.raises(InvalidVerdict) as caught:
        services.saga_advance(
            user=user, saga_id=saga_id, eval_result={"passed": False, "issues": issues}
        )
    assert snapshot(saga_id) == before
    return caught.value


def test_verdict_with_too_many_issues_is_refused_without_change(user):
    refused = _refused_verdict(user, ["missing"] * 51)
    assert refused.message == "evalResult.issues has 51 items; the limit is 50."
    assert refused.details == {"field": "issues", "count": 51, "limit": 50}


def test_verdict_with_an_over_long_issue_is_refused_without_change(user):
    refused = _refused_verdict(user, ["ok", "x" * 2001])
    assert refused.message == "evalResult.issues[1] is 2001 characters; the limit is 2000."
    assert refused.details == {"field": "issues", "index": 1, "length": 2001, "limit": 2000}


def test_verdict_at_the_issue_limits_is_accepted(user):
    saga_id = _deep_pending(user)
    out = services.saga_advance(
        user=user,
        saga_id=saga_id,
        eval_result={"passed": False, "issues": ["x" * 2000] * 50},
    )
    assert out["nextAction"] == "revision_queued"
    assert out["reason"] == "fix-attempt 1: " + "; ".join(["x" * 2000] * 3)


def test_artifacts_beyond_the_saga_total_are_refused_without_change(user, settings):
    settings.SAGASMITH_SAGA_MAX_TOTAL_ARTIFACT_BYTES = 30
    saga_id, _ = started(user, plan=simple_plan(2))
    services.saga_advance(
        user=user, saga_id=saga_id, artifacts=[{"path": "notes.md", "content": "n" * 20}]
    )
    before = snapshot(saga_id)
    with pytest.raises(ArtifactsTooLarge) as caught:
        finish(user, saga_id, "part1.md", content="p" * 11)
    assert caught.value.message == (
        f"The artifacts of saga {saga_id} would total 31 bytes; the limit is 30 bytes."
    )
    assert caught.value.code == "artifacts_too_large"
    assert caught.value.details == {"size": 31, "limit": 30}
    assert snapshot(saga_id) == before


def test_overwriting_an_artifact_counts_only_its_new_size(user, settings):
    settings.SAGASMITH_SAGA_MAX_TOTAL_ARTIFACT_BYTES = 30
    saga_id, _ = started(user, plan=simple_plan(2))
    finish(user, saga_id, "part1.md", content="p" * 20)
    out = services.saga_advance(
        user=user,
        saga_id=saga_id,
        artifacts=[{"path": "part1.md", "content": "q" * 25}, {"path": "part2.md", "content": "r"}],
    )
    assert out["nextAction"] == "continue_worker_now"
    assert dict(SagaArtifact.objects.filter(saga__key=saga_id).values_list("path", "size")) == {
        "part1.md": 25,
        "part2.md": 1,
    }


@pytest.mark.parametrize(
    ("diagnostics", "message", "details"),
    [
        (
            {"searchedTerms": ["t"] * 51},
            "workerDiagnostics.searchedTerms has 51 items; the limit is 50.",
            {"field": "workerDiagnostics.searchedTerms", "count": 51, "limit": 50},
        ),
        (
            {"errorsCaught": ["ok", "e" * 2001]},
            "workerDiagnostics.errorsCaught[1] is 2001 characters; the limit is 2000.",
            {"field": "workerDiagnostics.errorsCaught", "index": 1, "length": 2001, "limit": 2000},
        ),
        (
            {"urlsAttempted": [{"url": "u" * 2001, "status": 404}]},
            "workerDiagnostics.urlsAttempted[0] is 2001 characters; the limit is 2000.",
            {"field": "workerDiagnostics.urlsAttempted", "index": 0, "length": 2001, "limit": 2000},
        ),
        (
            {"notes": "n" * 10_001},
            "workerDiagnostics.notes is longer than 10000 characters.",
            {"field": "workerDiagnostics.notes", "length": 10_001, "limit": 10_000},
        ),
    ],
)
def test_over_large_worker_diagnostics_are_refused_without_change(
    user, diagnostics, message, details
):
    saga_id, _ = started(user, plan=simple_plan(1))
    before = snapshot(saga_id)
    with pytest.raises(InvalidInput) as caught:
        finish(user, saga_id, "wrong.md", worker_diagnostics=diagnostics)
    assert (caught.value.message, caught.value.details) == (message, details)
    assert snapshot(saga_id) == before
