"""The oracle's line in the Dice panel says the odds its question was asked at, in the words the
oracle's reply uses: "YES, AND" on a d100 reads differently at likely and at even odds."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.models import Operation
from apps.turns.services.publish import dice_from


def _answered(**changes: Any) -> dict[str, Any]:
    """An oracle's answer as the narrative domain returns it."""
    return {
        "roll": 4, "threshold": 75, "answer": "yes", "twist": "and", "result": "yes, and",
        "question": "Is the door locked?", "likelihood": "likely", **changes,
    }  # fmt: skip


def _lines(result: dict[str, Any]) -> list[dict[str, Any]]:
    return dice_from(
        [Operation(tool="oracle_ask", result={"structuredContent": result})],
        by="Nia",
        by_id="u-1",
    )


@pytest.mark.parametrize(
    ("likelihood", "odds"),
    [
        ("impossible", "impossible odds"),
        ("very_unlikely", "very unlikely odds"),
        ("even", "even odds"),
        ("very_likely", "very likely odds"),
        ("certain", "certain odds"),
    ],
)
def test_the_oracles_dice_line_says_the_odds_in_words(likelihood: str, odds: str) -> None:
    assert [line["odds"] for line in _lines(_answered(likelihood=likelihood))] == [odds]


def test_the_oracles_dice_line_carries_its_odds_beside_the_roll_and_answer() -> None:
    assert _lines(_answered()) == [
        {
            "tool": "oracle_ask",
            "label": "Is the door locked?",
            "expression": "d100",
            "total": 4,
            "result": "yes, and",
            "odds": "likely odds",
            "by": "Nia",
            "by_id": "u-1",
        }
    ]


def _stored_before_odds() -> dict[str, Any]:
    answer = _answered()
    del answer["likelihood"]
    return answer


@pytest.mark.parametrize(
    "answer",
    [_stored_before_odds(), _answered(likelihood=None), _answered(likelihood="maybe")],
    ids=["no odds", "none", "unknown"],
)
def test_an_oracle_answer_stored_without_known_odds_has_the_line_it_had(
    answer: dict[str, Any],
) -> None:
    assert _lines(answer) == [
        {
            "tool": "oracle_ask",
            "label": "Is the door locked?",
            "expression": "d100",
            "total": 4,
            "result": "yes, and",
            "by": "Nia",
            "by_id": "u-1",
        }
    ]
