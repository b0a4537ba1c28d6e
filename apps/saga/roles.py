"""Default clarifier and planner, and the settings seam that makes all three roles pluggable.

Settings (dotted paths): SAGASMITH_SAGA_CLARIFIER, SAGASMITH_SAGA_PLANNER,
SAGASMITH_SAGA_EVALUATOR. Signatures:
  clarifier(*, goal, profile, history, round) -> {"skip": bool, "questions": [str]}
  planner(*, goal, profile) -> {"summary": str, "stages": [stage objects]}
  evaluator(*, stage, profile, checks, read) -> {"passed": bool, "score": float|None, "issues": []}
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string

from .profiles import Profile

DEFAULTS = {
    "SAGASMITH_SAGA_CLARIFIER": "apps.saga.roles.profile_clarifier",
    "SAGASMITH_SAGA_PLANNER": "apps.saga.roles.agent_planner",
    "SAGASMITH_SAGA_EVALUATOR": "apps.saga.evaluator.hard_check_evaluator",
}


def role(name: str):
    return import_string(getattr(settings, name, DEFAULTS[name]))


def profile_clarifier(
    *,
    goal: str,
    profile: Profile,
    history: list[dict[str, str]],
    round: int,  # noqa: A002
) -> dict[str, Any]:
    """Ask the profile's question set for this round; skip once the sets run out."""
    rounds = profile.clarification_rounds
    if round >= len(rounds) or not rounds[round]:
        return {"skip": True, "questions": []}
    return {"skip": False, "questions": list(rounds[round])}


def agent_planner(*, goal: str, profile: Profile) -> dict[str, Any]:
    """The hosted platform does not plan server-side: the agent writes the plan (REF behavior)."""
    return {"summary": "", "stages": []}
