"""The advance() hot path: exact statement counts and what one step writes."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.saga import services
from apps.saga.models import Saga, SagaArtifact, SagaEvent
from tests.saga.conftest import finish, simple_plan, started


def _sql(ctx):
    return [q["sql"].split()[0].upper() for q in ctx.captured_queries]


@pytest.mark.django_db
def test_one_passing_advance_step_runs_an_exact_number_of_statements(user):
    saga_id, _ = started(user, plan=simple_plan(3))
    before = Saga.objects.get(key=saga_id)
    with CaptureQueriesContext(connection) as ctx:
        out = finish(user, saga_id, "part1.md")
    assert out["nextAction"] == "worker_mode_queued"
    # Savepoint, the row lock, the writes, release. PostgreSQL sends the artifact upsert, the
    # event insert and the saga update as one statement; other databases use three.
    if connection.vendor == "postgresql":
        assert _sql(ctx) == ["SAVEPOINT", "SELECT", "WITH", "RELEASE"]
    else:
        assert _sql(ctx) == ["SAVEPOINT", "SELECT", "INSERT", "INSERT", "UPDATE", "RELEASE"]
    saga = Saga.objects.get(key=saga_id)
    assert (saga.version, saga.last_sequence) == (before.version + 1, before.last_sequence + 3)
    assert saga.updated_at > before.updated_at
    assert saga.status == "running"
    events = list(
        SagaEvent.objects.filter(saga=saga, sequence__gt=before.last_sequence).values_list(
            "sequence", "type", "payload"
        )
    )
    assert [e[:2] for e in events] == [
        (before.last_sequence + 1, "eval_completed"),
        (before.last_sequence + 2, "worker_mode_queued"),
        (before.last_sequence + 3, "stage_advanced"),
    ]
    assert events[1][2] == {"stageId": "stage-02", "modeRevision": 2}
    artifact = SagaArtifact.objects.get(saga=saga, path="part1.md")
    assert (artifact.content, artifact.size) == ("hello world", 11)


@pytest.mark.django_db
def test_a_step_without_events_writes_artifacts_and_leaves_the_saga_row(user):
    saga_id, _ = started(user, plan=simple_plan(2))
    finish(user, saga_id, "part1.md", content="first")
    before = Saga.objects.get(key=saga_id)
    with CaptureQueriesContext(connection) as ctx:
        out = services.saga_advance(
            user=user, saga_id=saga_id, artifacts=[{"path": "part2.md", "content": "draft ü"}]
        )
        out = services.saga_advance(
            user=user, saga_id=saga_id, artifacts=[{"path": "part2.md", "content": "final"}]
        )
    assert out["nextAction"] == "continue_worker_now"
    # No event means no saga update: the artifact upsert is the only write, on every database.
    assert _sql(ctx) == ["SAVEPOINT", "SELECT", "INSERT", "RELEASE"] * 2
    after = Saga.objects.get(key=saga_id)
    assert (after.version, after.last_sequence, after.updated_at) == (
        before.version,
        before.last_sequence,
        before.updated_at,
    )
    assert list(SagaArtifact.objects.filter(saga=after).values_list("path", "content", "size")) == [
        ("part1.md", "first", 5),
        ("part2.md", "final", 5),
    ]
    # The upserted content is what the next check reads.
    assert finish(user, saga_id)["progress"]["completedStages"] == 2
