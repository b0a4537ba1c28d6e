"""Scripted roles for tests, selected by markers in the goal or stage goal."""

from apps.saga.evaluator import hard_check_evaluator
from apps.saga.roles import profile_clarifier

PLANNER_GOALS: list[str] = []


def clarifier(*, goal, profile, history, round):  # noqa: A002
    if "[profile-questions]" in goal:
        return profile_clarifier(goal=goal, profile=profile, history=history, round=round)
    if "[clarify]" in goal and round < 2:
        return {"skip": False, "questions": [f"Question {round + 1}?"]}
    return {"skip": True, "questions": []}


def planner(*, goal, profile):
    PLANNER_GOALS.append(goal)
    if "[reject-plan]" in goal:
        raise RuntimeError("planner unable to produce a plan: request rejected")
    if "[planner-crash]" in goal:
        raise ValueError("socket closed")
    if "[planned-invalid]" in goal:
        return {
            "summary": "A plan the platform cannot run",
            "stages": [
                {
                    "title": "Build",
                    "goal": "build it",
                    "checks": [{"kind": "command", "cmd": "make"}],
                },
                {"title": "Report", "goal": "report", "checks": [{"kind": "file-exists"}]},
            ],
        }
    if "[planned]" in goal:
        return {
            "summary": "Two planned stages",
            "stages": [
                {
                    "name": "Collect",
                    "objective": "collect notes",
                    "checks": [{"kind": "file-exists", "file": "notes.md"}],
                },
                {
                    "title": "Write",
                    "description": "write report",
                    "evaluator": "auto",
                    "doneCriteria": [{"kind": "file-size-gt", "path": "report.md", "bytes": 8}],
                },
            ],
        }
    return {"summary": "", "stages": []}


def evaluator(*, stage, profile, checks, read):
    if "[model-limit]" in stage["goal"]:
        return {"passed": False, "score": None, "issues": ["input too long for the context"]}
    if "[auto-fail]" in stage["goal"]:
        return {"passed": False, "score": 0.2, "issues": ["auto evaluator: weak output"]}
    return hard_check_evaluator(stage=stage, profile=profile, checks=checks, read=read)
