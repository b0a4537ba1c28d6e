"""A check or save line in the Dice panel carries its natural d20 ("d20 14 + 7 = 21"), except a
monster's on a line the players read: with the total it gives away the monster's modifier."""

from __future__ import annotations

from typing import Any

import pytest

from apps.turns.models import Operation
from apps.turns.services.publish import dice_from


def _rolled(**changes: Any) -> dict[str, Any]:
    """A check's full result, as its roller (or a GM) gets it back from the domain."""
    return {
        "ability": "dex", "ability_modifier": 3, "proficiency": 2, "bonus": 0, "natural": 14,
        "rolls": [14], "mode": "normal", "total": 19, "dc": 15, "success": True,
        "character_id": "pc-2", "character_name": "Lyra", "character_kind": "pc",
        "kind": "check", "skill": "stealth", **changes,
    }  # fmt: skip


def _goblin_save(**changes: Any) -> dict[str, Any]:
    return _rolled(
        ability_modifier=2, proficiency=0, natural=9, rolls=[9], total=11, dc=12, success=False,
        character_id="mon-3", character_name="Goblin", character_kind="monster", kind="save",
        skill=None, **changes,
    )  # fmt: skip


def _line(result: dict[str, Any], tool: str = "ability_check", **kwargs: Any) -> dict[str, Any]:
    (line,) = dice_from([Operation(tool=tool, result={"structuredContent": result})], **kwargs)
    return line


def test_a_players_own_check_line_carries_its_natural_die() -> None:
    assert _line(_rolled()) == {
        "tool": "ability_check",
        "label": "Stealth check · Lyra",
        "natural": 14,
        "total": 19,
        "dc": 15,
        "success": True,
        "mode": "normal",
    }


def test_a_monsters_save_a_gm_called_shows_the_table_no_natural_die_nor_modifier() -> None:
    """The GM's call returned the monster's natural roll and modifier; the line to everyone
    shows its total against the DC alone."""
    assert _line(_goblin_save(), tool="saving_throw") == {
        "tool": "saving_throw",
        "label": "Dex save · Goblin",
        "natural": None,
        "total": 11,
        "dc": 12,
        "success": False,
        "mode": "normal",
    }


@pytest.mark.parametrize("tool", ["ability_check", "saving_throw"])
def test_a_monsters_check_on_a_gm_only_line_carries_its_natural_die(tool: str) -> None:
    line = _line(_goblin_save(), tool=tool, gm_only=True)
    assert (line["natural"], line["total"], line["dc"]) == (9, 11, 12)


def test_a_check_stored_without_its_subjects_kind_shows_the_table_no_natural_die() -> None:
    """A result stored before checks named their subject's kind may be a monster's: only a GM
    line shows its natural die."""
    old = {k: v for k, v in _goblin_save().items() if k != "character_kind"}
    assert _line(old)["natural"] is None
    assert _line(old, gm_only=True)["natural"] == 9


def test_a_narrowed_monster_check_line_has_no_natural_die_even_for_the_gm() -> None:
    # The public view already left it out: nothing to show.
    shown = {
        k: v
        for k, v in _goblin_save().items()
        if k not in ("ability_modifier", "proficiency", "natural", "rolls")
    }
    assert _line(shown, gm_only=True)["natural"] is None
