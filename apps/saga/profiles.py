"""Profiles are data files under data/; this module loads and validates them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _

from .errors import UnknownProfile

DATA_DIR = Path(__file__).resolve().parent / "data"
PROFILE_IDS = ("ops", "research", "curation", "review", "generic")

# Every kind the plan language knows; only EXECUTABLE_KINDS run on the hosted platform.
KNOWN_KINDS = frozenset(
    {
        "file-exists",
        "file-size-gt",
        "file-schema",
        "progress-items",
        "log-scan",
        "free-form",
        "command",
        "browser",
        "metrics",
    }
)
EXECUTABLE_KINDS = frozenset(
    {"file-exists", "file-size-gt", "file-schema", "progress-items", "log-scan", "free-form"}
)


class ProfileConfigError(Exception):
    """A profile data file is incomplete; raised at load time, never at request time."""


@dataclass(frozen=True)
class Profile:
    id: str
    data: dict[str, Any]
    few_shot: str
    worker_tool_hint: str
    planner_examples: str

    @property
    def checklist(self) -> dict[str, list[dict[str, Any]]]:
        return self.data["evaluator"]["checklist"]

    @property
    def default_evaluator_mode(self) -> str:
        return self.data["defaultEvaluatorMode"]

    @property
    def allowed_kinds(self) -> tuple[str, ...]:
        return tuple(self.data["allowedCheckKinds"])

    @property
    def clarification_rounds(self) -> list[list[str]]:
        return self.data["clarificationRounds"]

    @property
    def default_clarification_rounds(self) -> int:
        return int(self.data["defaultClarificationRounds"])

    @property
    def stage_range(self) -> tuple[int, int]:
        low, high = self.data["stageRange"]
        return int(low), int(high)

    @property
    def label(self) -> str:
        return f"{self.id} — {self.data['description']}"


def checklist_errors(checklist: Any) -> list[str]:
    """Why an evaluator checklist is invalid (empty list when it is valid)."""
    errors: list[str] = []
    if not isinstance(checklist, dict):
        return ["checklist must be an object with hard and soft lists"]
    hard = checklist.get("hard")
    soft = checklist.get("soft")
    if not isinstance(hard, list) or not hard:
        errors.append("checklist.hard needs at least one item")
        hard = []
    if not isinstance(soft, list) or not soft:
        errors.append("checklist.soft needs at least one item")
        soft = []
    for item in hard:
        ident = str(item.get("id", "")) if isinstance(item, dict) else ""
        if not re.fullmatch(r"H\d+", ident):
            errors.append(f"hard item id {ident!r} must match H<n>")
            continue
        for key in ("title", "pass", "failRework", "failEscalate"):
            if not str(item.get(key, "")).strip():
                errors.append(f"{ident}: {key} is empty")
    for item in soft:
        ident = str(item.get("id", "")) if isinstance(item, dict) else ""
        if not re.fullmatch(r"S\d+", ident):
            errors.append(f"soft item id {ident!r} must match S<n>")
            continue
        weight = item.get("weight")
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 <= weight <= 1:
            errors.append(f"{ident}: weight must be a number from 0 to 1")
        if not str(item.get("title", "")).strip() or not str(item.get("scoringGuide", "")).strip():
            errors.append(f"{ident}: title and scoringGuide must not be empty")
    return errors


def _read(relative: str) -> str:
    return (DATA_DIR / relative).read_text(encoding="utf-8")


@cache
def load_profile(profile_id: str) -> Profile:
    """Load and validate one profile; ProfileConfigError names what is missing."""
    data = json.loads(_read(f"profiles/{profile_id}.json"))
    errors = checklist_errors(data.get("evaluator", {}).get("checklist"))
    if data.get("id") != profile_id or data.get("domain") != profile_id:
        errors.append("id and domain must equal the profile id")
    if data.get("defaultEvaluatorMode") not in ("auto", "deep"):
        errors.append("defaultEvaluatorMode must be auto or deep")
    unknown = set(data.get("allowedCheckKinds", [])) - KNOWN_KINDS
    if unknown or not data.get("allowedCheckKinds"):
        errors.append(f"allowedCheckKinds invalid: {sorted(unknown)}")
    rounds = data.get("clarificationRounds")
    if not isinstance(rounds, list) or len(rounds) != data.get("defaultClarificationRounds"):
        errors.append("clarificationRounds must list one question set per round")
    if errors:
        raise ProfileConfigError(f"profile {profile_id}: " + "; ".join(errors))
    return Profile(
        id=profile_id,
        data=data,
        few_shot=_read(data["evaluator"]["fewShotCalibrationPath"]),
        worker_tool_hint=_read(data["workerToolHintPath"]),
        planner_examples=_read(data["plannerExamplesPath"]),
    )


def get_profile(profile_id: str) -> Profile:
    """The named profile; raises UnknownProfile for anything not in the registry."""
    if profile_id not in PROFILE_IDS:
        raise UnknownProfile(
            _("Unknown profile %(profile)r; expected one of %(known)s.")
            % {"profile": profile_id, "known": ", ".join(PROFILE_IDS)},
            details={"profile": str(profile_id)[:40]},
        )
    return load_profile(profile_id)
