"""Over-long inputs are rejected with the limit they exceed."""

import pytest

from apps.saga import services
from apps.saga.errors import InvalidInput, InvalidVerdict
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


def test_verdict_with_too_many_issues_is_refused_without_change(user):
    saga_id = _deep_pending(user)
    before = snapshot(saga_id)
    with pytest.raises(InvalidVerdict) as caught:
        services.saga_advance(
            user=user,
            saga_id=saga_id,
            eval_result={"passed": False, "issues": ["missing"] * 51},
        )
    assert caught.value.message == "evalResult.issues has 51 items; the limit is 50."
    assert caught.value.details == {"field": "issues", "count": 51, "limit": 50}
    assert snapshot(saga_id) == before


def test_verdict_with_an_over_long_issue_is_refused_without_change(user):
    saga_id = _deep_pending(user)
    before = snapshot(saga_id)
    with pytest.raises(InvalidVerdict) as caught:
        services.saga_advance(
            user=user,
            saga_id=saga_id,
            eval_result={"passed": False, "issues": ["ok", "x" * 2001]},
        )
    assert caught.value.message == "evalResult.issues[1] is 2001 characters; the limit is 2000."
    assert caught.value.details == {"field": "issues", "index": 1, "length": 2001, "limit": 2000}
    assert snapshot(saga_id) == before


def test_verdict_at_the_issue_limits_is_accepted(user):
    saga_id = _deep_pending(user)
    out = services.saga_advance(
        user=user,
        saga_id=saga_id,
        eval_result={"passed": False, "issues": ["x" * 2000] * 50},
    )
    assert out["nextAction"] == "revision_queued"
    assert out["reason"] == "fix-attempt 1: " + "; ".join(["x" * 2000] * 3)
