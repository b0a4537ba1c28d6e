"""A check that succeeds reads as a check ("succeeds"), not a save ("holds"), and a total
equal to the DC (a success in 5e) "meets" it rather than "beats" it."""

from __future__ import annotations

import pytest

from apps.turns.agents.scripted import ScriptedAgent
from apps.turns.types import ToolInfo, TurnContext
from tests.turns.test_scripted_conditions import _Stub


def _said(text: str, total: int, job_id: str) -> str:
    turn = TurnContext(
        job_id=job_id,
        system_id="dnd5e",
        phase="play",
        role="player",
        task="action",
        text=text,
        tools=tuple(
            ToolInfo(n, "", {"type": "object", "properties": {}})
            for n in ("ability_check", "saving_throw")
        ),
        character_id="pc-1",
    )
    result = {"character_name": "Ash", "total": total, "success": total >= 12}
    stub = _Stub({"ability_check": result, "saving_throw": result})
    return ScriptedAgent().run_turn(turn, stub).messages[0].text


JOBS = [f"job-{n}" for n in range(12)]  # enough for every phrasing to be picked


@pytest.mark.parametrize(
    ("text", "total", "wording"),
    [
        (
            "perception check dc 12",
            12,
            "A roll of 12 meets DC 12: Ash's perception check succeeds.",
        ),
        (
            "perception check dc 12",
            15,
            "A roll of 15 beats DC 12: Ash's perception check succeeds.",
        ),
        ("dex save dc 12", 12, "A roll of 12 meets DC 12: Ash's dex save holds."),
        ("dex save dc 12", 13, "A roll of 13 beats DC 12: Ash's dex save holds."),
    ],
)
def test_a_success_meets_or_beats_the_dc_and_a_check_succeeds(text, total, wording):
    said = {_said(text, total, job) for job in JOBS}
    assert wording in said
    assert len(said) == 3  # and the other two phrasings
    assert not any(("beats" if total == 12 else "meets") in s for s in said)
    assert not any("check holds" in s for s in said)
