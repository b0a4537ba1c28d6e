"""Reads: sagas are visible only to their owner."""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery, Sum
from django.utils.translation import gettext as _

from .errors import SagaNotFound
from .models import Saga, SagaArtifact, SagaEvent
from .state import current_stage, progress, transition_kind


def _not_found(saga_id: str) -> SagaNotFound:
    return SagaNotFound(
        _("Saga %(id)s was not found.") % {"id": str(saga_id)[:60]},
        details={"sagaId": str(saga_id)[:60]},
    )


def saga_get(
    *, owner, saga_id: str, lock: bool = False, artifact_bytes_except: list[str] | None = None
) -> Saga:
    """The owner's saga by its public id; another user's id is reported as not found.

    With artifact_bytes_except, `other_artifact_bytes` is the size of its artifacts at other
    paths, read in the same statement (a scalar subquery; the row lock covers only the saga).
    """
    queryset = Saga.objects.all()
    if artifact_bytes_except is not None:
        others = (
            SagaArtifact.objects.filter(saga=OuterRef("pk"))
            .exclude(path__in=artifact_bytes_except)
            .order_by()
            .values("saga")
            .annotate(total=Sum("size"))
            .values("total")
        )
        queryset = queryset.annotate(other_artifact_bytes=Subquery(others))
    if lock:
        queryset = queryset.select_for_update()
    saga = queryset.filter(key=str(saga_id), owner=owner).first()
    if saga is None:
        raise _not_found(saga_id)
    return saga


def saga_events(*, saga: Saga) -> list[dict[str, Any]]:
    return [
        ev.as_event(saga.key) for ev in SagaEvent.objects.filter(saga=saga).order_by("sequence")
    ]


def sagas_for_owner(*, owner) -> QuerySet[Saga]:
    return Saga.objects.filter(owner=owner).order_by("-created_at")


def saga_status(*, user, saga_id: str) -> dict[str, Any]:
    """Read-only snapshot (spec §8.3); raises SagaNotFound."""
    saga = saga_get(owner=user, saga_id=saga_id)
    s = saga.state
    stage = current_stage(s)
    return {
        "sagaId": saga.key,
        "profile": s["profile"],
        "goal": s["goal"],
        "cursor": s["cursor"],
        "totalStages": len(s["stages"]),
        "currentStage": stage["id"] if stage else None,
        "transition": transition_kind(s),
        "termination": s["termination"],
        "recoveryAttempts": s["recoveryAttempts"],
        "progress": progress(s),
    }
