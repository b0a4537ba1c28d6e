"""A check rolled with no DC (a Stealth roll the GM compares with the watchers' Perception) has a
line in the Dice panel too: its roll and total, with no DC and no success or failure."""

from __future__ import annotations

from typing import Any

from apps.turns.models import Operation
from apps.turns.services.publish import dice_from


def _rolled(**changes: Any) -> dict[str, Any]:
    """A check with no DC, as its roller gets it back from the domain."""
    return {
        "ability": "dex", "ability_modifier": 2, "proficiency": 4, "bonus": 0, "natural": 8,
        "rolls": [8], "mode": "normal", "total": 14, "character_id": "pc-1",
        "character_name": "Ilsa", "character_kind": "pc", "kind": "check", "skill": "stealth",
        **changes,
    }  # fmt: skip


def _lines(result: dict[str, Any], **kwargs: Any) -> list[dict[str, Any]]:
    return dice_from(
        [Operation(tool="ability_check", result={"structuredContent": result})], **kwargs
    )


def test_a_check_with_no_dc_has_a_dice_line_with_its_total_and_no_outcome() -> None:
    assert _lines(_rolled()) == [
        {
            "tool": "ability_check",
            "label": "Stealth check · Ilsa",
            "natural": 8,
            "total": 14,
            "mode": "normal",
        }
    ]


def test_a_check_with_no_dc_rolled_with_disadvantage_says_so() -> None:
    poisoned = _rolled(
        rolls=[15, 8], mode="disadvantage", disadvantage_reasons=["Ilsa is poisoned"]
    )
    assert [line["mode"] for line in _lines(poisoned)] == ["disadvantage"]


def test_a_monsters_check_with_no_dc_shows_the_players_its_total_alone() -> None:
    goblin = _rolled(character_id="mon-1", character_name="Goblin", character_kind="monster")
    assert [(line["natural"], line["total"]) for line in _lines(goblin)] == [(None, 14)]
    assert [(line["natural"], line["total"]) for line in _lines(goblin, gm_only=True)] == [(8, 14)]
