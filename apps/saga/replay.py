"""Rebuild a saga's state from its events and compare it with the stored state (spec §1.5)."""

from __future__ import annotations

import copy
from typing import Any

from .state import guidance_add, new_state

_FIX = "eval_needs_fix_attempt"


def state_rebuild(events: list[dict[str, Any]], *, saga_id: str) -> dict[str, Any]:
    """Apply events in order to the defaults; every state change has an event, so this is exact."""
    s = new_state(
        saga_id=saga_id, profile="research", goal="(reconstructed)", clarification_limit=3
    )
    for ev in events:
        kind = ev["type"]
        if kind == "saga_created":
            s["profile"] = ev["profile"]
            s["goal"] = ev["goal"]
            s["clarificationLimit"] = ev.get("clarificationLimit", 3)
        elif kind == "clarification_requested":
            s["transition"] = {"kind": "clarifying_requirements", "questions": ev["questions"]}
        elif kind == "clarification_answered":
            s["clarificationHistory"].append({"question": ev["question"], "answer": ev["answer"]})
            s["clarificationRound"] = ev["round"]
            s["transition"] = None
        elif kind == "plan_requested":
            s["transition"] = {"kind": "awaiting_plan_yaml"}
            if ev.get("problems"):
                s["transition"]["problems"] = ev["problems"]
        elif kind == "plan_produced":
            s["plan"] = {"summary": ev["summary"], "stages": copy.deepcopy(ev["stages"])}
            s["stages"] = copy.deepcopy(ev["stages"])
            s["cursor"] = 0
            s["transition"] = None
        elif kind == "worker_mode_queued":
            s["modeRevision"] = ev["modeRevision"]
            s["transition"] = {"kind": "worker_mode_injected", "stageId": ev["stageId"]}
        elif kind == "eval_deep_required":
            s["transition"] = {"kind": "eval_deep_pending", "stageId": ev["stageId"]}
        elif kind == "eval_completed" and ev.get("passed"):
            # D1: only eval_completed moves the cursor; deep_eval_completed is informational.
            s["cursor"] += 1
            s["transition"] = {"kind": "eval_passed", "stageId": ev["stageId"]}
        elif kind == "recovery_attempt":
            _apply_recovery(s, ev)
        elif kind == "human_input_requested":
            s["transition"] = {"kind": "awaiting_human", "reason": ev["reason"]}
        elif kind == "human_input_received":
            guidance_add(s, stage_id=ev["stageId"], text=ev["text"])
        elif kind == "saga_terminated":
            s["termination"] = {"reason": ev["reason"], "details": ev["details"], "ts": ev["ts"]}
    return s


def _apply_recovery(s: dict[str, Any], ev: dict[str, Any]) -> None:
    sid = ev["stageId"]
    s["recoveryAttempts"][sid] = ev["attempt"]
    method = ev["method"]
    if method == "microcompact-retry":
        s["transition"] = {
            "kind": "microcompact_retry",
            "stageId": sid,
            "issues": ev["issues"],
            "summary": ev["summary"],
        }
    elif method == "full-rework":
        s["transition"] = {
            "kind": "rework_full",
            "stageId": sid,
            "attempt": ev["attempt"],
            "issues": ev["issues"],
        }
        s["modeRevision"] = ev["modeRevision"]
    elif method != "terminal":
        # The terminal layer leaves the transition as it was; anything else is a fix attempt.
        s["transition"] = {
            "kind": _FIX,
            "stageId": sid,
            "attempt": ev["attempt"],
            "issues": ev["issues"],
        }


def state_diff(stored: dict[str, Any], rebuilt: dict[str, Any]) -> list[str]:
    """Top-level fields whose values differ, as readable lines."""
    lines = []
    for key in sorted(set(stored) | set(rebuilt)):
        if stored.get(key) != rebuilt.get(key):
            lines.append(f"{key}: stored={stored.get(key)!r} rebuilt={rebuilt.get(key)!r}")
    return lines
