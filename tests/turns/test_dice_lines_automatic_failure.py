"""A save the rules fail whatever was rolled carries why on its Dice panel line, so the line can
say it as the narration does ("Ilsa's dex save fails: Ilsa is paralyzed.") rather than show a
total against the DC as if the total had decided it."""

from __future__ import annotations

from tests.turns.test_dice_lines_check_natural import _line, _rolled


def test_a_save_failed_automatically_carries_its_reason_on_its_line() -> None:
    failed = _rolled(kind="save", skill=None, total=21, natural=18, success=False)
    line = _line({**failed, "automatic_failure": "Lyra is paralyzed"}, tool="saving_throw")

    assert (line["success"], line["automatic_failure"]) == (False, "Lyra is paralyzed")


def test_a_rolled_save_carries_no_reason() -> None:
    assert "automatic_failure" not in _line(_rolled(kind="save", skill=None), tool="saving_throw")
