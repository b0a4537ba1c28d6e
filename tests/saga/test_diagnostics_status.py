"""workerDiagnostics URL statuses are stored as numbers or text (spec §5.3)."""

import pytest

from apps.saga.models import SagaDiagnostics
from tests.saga.conftest import finish, simple_plan, started

pytestmark = pytest.mark.django_db


def test_non_finite_url_status_is_stored_as_text(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    diag = {"urlsAttempted": [{"url": "a", "status": float("nan")}, {"url": "b", "status": 404}]}

    out = finish(user, saga_id, worker_diagnostics=diag)

    assert out["nextAction"] == "revision_queued"
    payload = SagaDiagnostics.objects.get(saga__key=saga_id).payload
    assert payload["urlsAttempted"] == [
        {"url": "a", "status": "nan"},
        {"url": "b", "status": 404},
    ]


def test_object_url_status_is_stored_as_its_text(user):
    saga_id, _ = started(user, plan=simple_plan(1))
    diag = {"urlsAttempted": [{"url": "a", "status": {"code": 404}}]}

    finish(user, saga_id, worker_diagnostics=diag)

    payload = SagaDiagnostics.objects.get(saga__key=saga_id).payload
    assert payload["urlsAttempted"] == [{"url": "a", "status": "{'code': 404}"}]
