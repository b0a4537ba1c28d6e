import os

import pytest
from django.db import connection

from apps.saga import services

SCRIPTED = {
    "SAGASMITH_SAGA_CLARIFIER": "tests.saga.scripted.clarifier",
    "SAGASMITH_SAGA_PLANNER": "tests.saga.scripted.planner",
    "SAGASMITH_SAGA_EVALUATOR": "tests.saga.scripted.evaluator",
}


@pytest.fixture(autouse=True)
def scripted_roles(settings):
    for name, path in SCRIPTED.items():
        setattr(settings, name, path)


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(email="ana@example.com", password="pw-12345678")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user(email="bo@example.com", password="pw-12345678")


def stage_md(n, title, goal, done, evaluator="auto"):
    lines = "\n".join(f"  - {item}" for item in done)
    return (
        f"## Stage {n}: {title}\nGoal: {goal}\n\n"
        f"```yaml\ndone:\n{lines}\nevaluator: {evaluator}\n```\n"
    )


def plan_md(*stages, summary="A test plan."):
    return f"## Summary\n{summary}\n\n" + "\n".join(stages)


def simple_plan(count=3, evaluator="auto", goal_marker=""):
    return plan_md(
        *(
            stage_md(
                i,
                f"Part {i}",
                f"write part {i}{goal_marker}",
                [f"kind: file-exists\n    path: part{i}.md"],
                evaluator,
            )
            for i in range(1, count + 1)
        )
    )


def started(user, *, goal="Write a report", profile="generic", plan=None):
    """Start a saga and, when a plan is given, submit it; returns (sagaId, last response)."""
    out = services.saga_start(user=user, goal=goal, profile=profile)
    if plan is not None:
        out2 = services.saga_advance(user=user, saga_id=out["sagaId"], plan_yaml=plan)
        return out["sagaId"], out2
    return out["sagaId"], out


def finish(user, saga_id, *paths, content="hello world", **extra):
    return services.saga_advance(
        user=user,
        saga_id=saga_id,
        worker_finished=True,
        artifacts=[{"path": p, "content": content} for p in paths],
        **extra,
    )


def postgres_or_skip():
    if connection.vendor != "postgresql":
        if os.environ.get("SAGASMITH_REQUIRE_SERVICES") == "1":
            pytest.fail("PostgreSQL is required (SAGASMITH_REQUIRE_SERVICES=1)")
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")


def snapshot(saga_id):
    """Everything a saga call could change: state, version, event types, artifacts."""
    from apps.saga.models import Saga, SagaArtifact, SagaEvent

    saga = Saga.objects.get(key=saga_id)
    return (
        saga.state,
        saga.version,
        saga.last_sequence,
        list(SagaEvent.objects.filter(saga=saga).order_by("sequence").values_list("type")),
        dict(SagaArtifact.objects.filter(saga=saga).values_list("path", "content")),
    )
