"""A check or save rolled with advantage or disadvantage carries its mode on its Dice panel line,
as an attack's does, for the line to say; its label names only the roll ("Stealth check · Lyra"),
as an attack's label does."""

from __future__ import annotations

import pytest

from tests.turns.test_dice_lines_check_natural import _goblin_save, _line, _rolled


@pytest.mark.parametrize("mode", ["advantage", "disadvantage"])
def test_a_check_rolled_with_two_dice_carries_which_on_its_line(mode: str) -> None:
    kept = 14 if mode == "advantage" else 6
    line = _line(_rolled(mode=mode, rolls=[6, 14], natural=kept, total=kept + 5))

    assert line == {
        "tool": "ability_check",
        "label": "Stealth check · Lyra",
        "natural": kept,
        "total": kept + 5,
        "dc": 15,
        "success": True,
        "mode": mode,
    }


def test_a_monsters_save_with_disadvantage_carries_it_without_its_dice() -> None:
    # The public view keeps the mode: it gives away nothing of the stat block.
    shown = {
        k: v
        for k, v in {**_goblin_save(), "mode": "disadvantage", "rolls": [9, 15]}.items()
        if k not in ("ability_modifier", "proficiency", "natural", "rolls")
    }

    line = _line(shown, tool="saving_throw")

    assert (line["label"], line["natural"], line["mode"]) == (
        "Dex save · Goblin",
        None,
        "disadvantage",
    )


def test_a_plain_check_line_names_no_mode_in_its_label() -> None:
    line = _line(_rolled())

    assert (line["label"], line["mode"]) == ("Stealth check · Lyra", "normal")


def test_a_check_stored_without_a_mode_reads_as_a_plain_one() -> None:
    old = {k: v for k, v in _rolled().items() if k != "mode"}

    assert (_line(old)["label"], _line(old)["mode"]) == ("Stealth check · Lyra", "normal")
