"""A deep verdict's score must be a finite number; anything else is recorded as null (spec §6)."""

import pytest

from apps.saga import services
from apps.saga.evaluator import verdict_coerce
from apps.saga.models import SagaEvent
from tests.saga.conftest import finish, simple_plan, started


@pytest.mark.parametrize("score", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_score_becomes_null(score):
    assert verdict_coerce({"passed": True, "score": score})["score"] is None


@pytest.mark.django_db
def test_deep_pass_with_nan_score_records_null_score(user):
    saga_id, _ = started(user, profile="review", plan=simple_plan(1, "deep"))
    finish(user, saga_id, "part1.md")

    out = services.saga_advance(
        user=user, saga_id=saga_id, eval_result={"passed": True, "score": float("nan")}
    )

    assert (out["nextAction"], out["reason"]) == ("terminated", "completed")
    scores = list(
        SagaEvent.objects.filter(
            saga__key=saga_id, type__in=["deep_eval_completed", "eval_completed"]
        )
        .order_by("sequence")
        .values_list("payload__score", flat=True)
    )
    assert scores == [None, None]
