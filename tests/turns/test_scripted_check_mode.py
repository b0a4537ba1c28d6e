"""A check or save the rules rolled with advantage or disadvantage says so in the GM's
narration, in each of its phrasings; a plain roll reads as it always has."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, ToolOutcome, TurnContext

pytestmark = pytest.mark.django_db


def _narrated(text: str, tool: str, result: dict[str, Any]) -> set[str]:
    """Every phrasing of Ilsa's `text` when the rules answer `tool` with `result`."""

    def call_tool(name: str, arguments: Any) -> ToolOutcome:
        assert name == tool
        return ToolOutcome(tool=name, step=1, ok=True, structured=result)

    said = set()
    for n in range(12):
        turn = TurnContext(
            job_id=f"job-{n}",
            system_id="dnd5e",
            phase="play",
            role="player",
            task="action",
            text=text,
            tools=(ToolInfo(tool, "", {"type": "object", "properties": {}}),),
            character_id="pc-1",
        )
        output = ScriptedAgent().run_turn(turn, call_tool)
        said |= {m.text for m in output.messages}
    return said


def _result(*, mode: str, total: int, success: bool, kind: str, **extra: Any) -> dict[str, Any]:
    return {
        "character_id": "pc-1",
        "character_name": "Ilsa",
        "character_kind": "pc",
        "kind": kind,
        "natural": total,
        "rolls": [total] if mode == "normal" else [total, 20 if mode == "disadvantage" else 1],
        "mode": mode,
        "total": total,
        "dc": 12,
        "success": success,
        **extra,
    }


def test_a_check_rolled_with_disadvantage_says_so():
    result = _result(mode="disadvantage", total=7, success=False, kind="check")

    assert _narrated("check perception dc 12", "ability_check", result) == {
        "Ilsa's perception check with disadvantage: 7 against DC 12. It fails.",
        "Ilsa's perception check with disadvantage falls short with 7 (DC 12).",
        "A roll of 7 is not enough for DC 12: Ilsa's perception check with disadvantage fails.",
    }


def test_a_save_rolled_with_advantage_says_so():
    result = _result(mode="advantage", total=15, success=True, kind="save")

    assert _narrated("dex save dc 12", "saving_throw", result) == {
        "Ilsa's dex save with advantage: 15 against DC 12. Success.",
        "Ilsa's dex save with advantage succeeds with 15 (DC 12).",
        "A roll of 15 beats DC 12: Ilsa's dex save with advantage holds.",
    }


def test_a_plain_roll_names_no_mode():
    result = _result(mode="normal", total=15, success=True, kind="check")

    assert _narrated("check perception dc 12", "ability_check", result) == {
        "Ilsa's perception check: 15 against DC 12. Success.",
        "Ilsa's perception check succeeds with 15 (DC 12).",
        "A roll of 15 beats DC 12: Ilsa's perception check succeeds.",
    }
