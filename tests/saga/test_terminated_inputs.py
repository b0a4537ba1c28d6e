"""A terminated saga answers `terminated` to every advance and writes nothing (spec §2.1)."""

import pytest

from apps.saga import services
from apps.saga.models import SagaDiagnostics
from tests.saga.conftest import finish, simple_plan, snapshot, started

pytestmark = pytest.mark.django_db

DIAGNOSTICS = {"searchedTerms": ["x"], "urlsAttempted": [], "errorsCaught": [], "notes": "n"}


def test_worker_diagnostics_on_a_cancelled_saga_are_not_stored(user):
    saga_id, _ = started(user, plan=simple_plan(2))
    services.saga_cancel(user=user, saga_id=saga_id)
    before = snapshot(saga_id)

    out = services.saga_advance(
        user=user, saga_id=saga_id, worker_finished=True, worker_diagnostics=DIAGNOSTICS
    )

    assert (out["nextAction"], out["reason"]) == ("terminated", "aborted_by_user")
    assert SagaDiagnostics.objects.filter(saga__key=saga_id).count() == 0
    assert snapshot(saga_id) == before


def test_worker_finished_on_a_saga_cancelled_while_awaiting_human_answers_terminated(user):
    saga_id, _ = started(user, profile="review", plan=simple_plan(1, "deep"))
    finish(user, saga_id, "part1.md")
    services.saga_advance(
        user=user, saga_id=saga_id, eval_result={"passed": False, "escalate": True}
    )
    services.saga_cancel(user=user, saga_id=saga_id, reason="Gave up")
    before = snapshot(saga_id)

    out = services.saga_advance(user=user, saga_id=saga_id, worker_finished=True)

    assert (out["nextAction"], out["reason"], out["details"]) == (
        "terminated",
        "aborted_by_user",
        "Gave up",
    )
    assert snapshot(saga_id) == before


def test_human_input_on_a_saga_cancelled_while_awaiting_a_plan_answers_terminated(user):
    saga_id, out = started(user)
    assert out["status"] == "plan_required"
    services.saga_cancel(user=user, saga_id=saga_id)
    before = snapshot(saga_id)

    out = services.saga_advance(user=user, saga_id=saga_id, human_input="Try harder")

    assert (out["nextAction"], out["reason"]) == ("terminated", "aborted_by_user")
    assert snapshot(saga_id) == before
