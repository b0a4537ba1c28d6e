"""Ops memory: after an ops saga completes, append what was learned (spec §7)."""

from __future__ import annotations

import logging
import re
from typing import Any

from django.utils import timezone

from .models import OpsMemoryEntry, Saga, SagaArtifact

logger = logging.getLogger(__name__)


def _first_paragraph(text: str) -> str:
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [ln.strip() for ln in block.splitlines() if ln.strip() and not ln.startswith("#")]
        if lines:
            return " ".join(lines)
    return ""


def ops_memory_text(
    *, saga_id: str, goal: str, stages: list[dict[str, Any]], artifacts: dict[str, str]
) -> str:
    """The memory entry lines for one completed ops saga."""
    paths = [c.get("path", "") for c in (stages[-1]["doneCriteria"] if stages else [])]
    diag_path = next((p for p in paths if p.endswith("diagnosis.md")), None)
    runbook_path = next((p for p in paths if p.endswith("runbook.md")), None)
    diagnosis = artifacts.get(diag_path, "") if diag_path else ""
    runbook = artifacts.get(runbook_path, "") if runbook_path else ""
    paragraph = _first_paragraph(diagnosis) or _first_paragraph(goal)
    remediation = next(
        (
            ln.strip()[:200]
            for ln in runbook.splitlines()
            if ln.strip().startswith("sudo ") or re.match(r"^[A-Za-z][\w.-]* ", ln.strip())
        ),
        "(see runbook.md)",
    )
    reverts = "yes" if "revert" in runbook.lower() else "no"
    return "\n".join(
        [
            f"## ops-saga {saga_id} — {paragraph[:100]}",
            f"- Diagnosis: {paragraph[:200]}",
            f"- Remediation: {remediation}",
            f"- Reverts: {reverts}",
            f"- Files: {diag_path if diagnosis else '-'}, {runbook_path if runbook else '-'}",
        ]
    )


def ops_memory_append(*, saga_pk) -> OpsMemoryEntry | None:
    """Runs after commit; a failure is logged and never reaches the caller."""
    try:
        saga = Saga.objects.get(pk=saga_pk)
        artifacts = dict(SagaArtifact.objects.filter(saga=saga).values_list("path", "content"))
        text = ops_memory_text(
            saga_id=saga.key, goal=saga.goal, stages=saga.state["stages"], artifacts=artifacts
        )
        entry, _ = OpsMemoryEntry.objects.get_or_create(
            saga=saga,
            defaults={"owner_id": saga.owner_id, "day": timezone.localdate(), "text": text},
        )
        return entry
    except Exception:
        logger.exception("ops memory append failed for saga %s", saga_pk)
        return None
