"""A check or save the rules rolled with advantage or disadvantage says why, as an attack does
("(Disadvantage: Ilsa is poisoned.)"), in each of its phrasings."""

from __future__ import annotations

import pytest

from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_check_mode import _narrated, _result

pytestmark = pytest.mark.django_db


def test_a_poisoned_check_says_why_it_was_rolled_with_disadvantage():
    result = _result(
        mode="disadvantage",
        total=7,
        success=False,
        kind="check",
        disadvantage_reasons=["Ilsa is poisoned"],
    )

    assert _narrated("check perception dc 12", "ability_check", result) == {
        "Ilsa's perception check: 7 against DC 12. It fails. (Disadvantage: Ilsa is poisoned.)",
        "Ilsa's perception check falls short with 7 (DC 12). (Disadvantage: Ilsa is poisoned.)",
        "A roll of 7 is not enough for DC 12: Ilsa's perception check fails. "
        "(Disadvantage: Ilsa is poisoned.)",
    }


def test_reasons_about_one_creature_are_said_once_before_the_default_dc():
    result = _result(
        mode="disadvantage",
        total=13,
        success=True,
        kind="check",
        dc=10,
        disadvantage_reasons=[
            "Ilsa is frightened by a source taken to be in sight",
            "Ilsa is poisoned",
        ],
    )

    assert _narrated("check stealth", "ability_check", result) == {
        f"{roll} (Disadvantage: Ilsa is frightened by a source taken to be in sight and "
        "poisoned.) No DC was named, so the default DC 10 was used."
        for roll in (
            "Ilsa's stealth check: 13 against DC 10. Success.",
            "Ilsa's stealth check succeeds with 13 (DC 10).",
            "A roll of 13 beats DC 10: Ilsa's stealth check succeeds.",
        )
    }


def test_a_restrained_dex_save_says_why_it_was_rolled_with_disadvantage():
    result = _result(
        mode="disadvantage",
        total=14,
        success=True,
        kind="save",
        disadvantage_reasons=["Ilsa is restrained"],
    )

    assert _narrated("dex save dc 12", "saving_throw", result) == {
        "Ilsa's dex save: 14 against DC 12. Success. (Disadvantage: Ilsa is restrained.)",
        "Ilsa's dex save succeeds with 14 (DC 12). (Disadvantage: Ilsa is restrained.)",
        "A roll of 14 beats DC 12: Ilsa's dex save holds. (Disadvantage: Ilsa is restrained.)",
    }


def test_a_check_rolled_with_advantage_says_why():
    # No SRD condition gives a check advantage yet: the reasons are said all the same.
    result = _result(
        mode="advantage",
        total=15,
        success=True,
        kind="check",
        advantage_reasons=["Ilsa is helped"],
    )

    assert _narrated("check perception dc 12", "ability_check", result) == {
        "Ilsa's perception check: 15 against DC 12. Success. (Advantage: Ilsa is helped.)",
        "Ilsa's perception check succeeds with 15 (DC 12). (Advantage: Ilsa is helped.)",
        "A roll of 15 beats DC 12: Ilsa's perception check succeeds. (Advantage: Ilsa is helped.)",
    }


def test_a_poisoned_players_check_at_the_table_says_why(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)
    table.run(gm, "poison Ilsa", job_id="poison")

    run = table.run(player, "perception check dc 12", job_id="check")

    assert run.texts == [
        (
            "Ilsa's perception check falls short with 7 (DC 12). (Disadvantage: Ilsa is poisoned.)",
            "trigger",
        )
    ]
