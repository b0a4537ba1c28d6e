"""A save the rules fail whatever was rolled (a paralysed or stunned creature's STR or DEX save)
is narrated as failed and why, as a forced save is, never with a total that would have passed;
an unconscious creature's check is refused by the rules, with the reason."""

from __future__ import annotations

from typing import Any

import pytest

from apps.domains.client import principal_for
from tests.turns.test_scripted_agent import dnd_table_in_combat
from tests.turns.test_scripted_check_mode import _narrated

pytestmark = pytest.mark.django_db


def _failed(ability: str, *, dc: int, **extra: Any) -> dict[str, Any]:
    """A save of 17 the rules failed anyway: Ilsa is paralyzed."""
    return {
        "character_id": "pc-1",
        "character_name": "Ilsa",
        "character_kind": "pc",
        "kind": "save",
        "ability": ability,
        "natural": 15,
        "rolls": [15],
        "mode": "normal",
        "total": 17,
        "dc": dc,
        "success": False,
        "automatic_failure": "Ilsa is paralyzed",
        **extra,
    }


def test_a_save_failed_automatically_says_why_and_not_its_total():
    assert _narrated("dex save dc 10", "saving_throw", _failed("dex", dc=10)) == {
        "Ilsa's dex save fails: Ilsa is paralyzed."
    }


def test_a_save_failed_automatically_names_neither_its_mode_nor_the_default_dc():
    # Restrained as well: the disadvantage and the DC changed nothing, the failure was certain.
    result = _failed(
        "dex",
        dc=10,
        mode="disadvantage",
        rolls=[15, 18],
        disadvantage_reasons=["Ilsa is restrained"],
    )
    assert _narrated("dex save", "saving_throw", result) == {
        "Ilsa's dex save fails: Ilsa is paralyzed."
    }


def test_saves_that_fail_automatically_at_the_table(live_domains, gm, player):
    table, _start = dnd_table_in_combat(gm, player)  # Ilsa, Goblin 2 (mon-3), Goblin (mon-2)
    table.run(gm, "paralyze Ilsa", job_id="paralyze")
    table.run(gm, "stun goblin 2", job_id="stun")

    ilsa = table.run(player, "dex save dc 10", job_id="ilsa-save")
    goblin = table.run(gm, "goblin 2 makes a dex save dc 10", job_id="goblin-save")

    assert ilsa.texts == [("Ilsa's dex save fails: Ilsa is paralyzed.", "trigger")]
    assert goblin.texts == [("Goblin 2's dex save fails: Goblin 2 is stunned.", "trigger")]


def test_an_unconscious_creature_fails_its_strength_save_and_makes_no_check(
    live_domains, gm, player
):
    table, _start = dnd_table_in_combat(gm, player)
    table.call(
        gm,
        "condition_add",
        target_id=table.characters[principal_for(player)],
        condition="unconscious",
        expected_revision=table.revision(),
        idempotency_key="knocked-out",
    )

    save = table.run(player, "str save dc 5", job_id="save")
    check = table.run(player, "perception check dc 12", job_id="check")

    assert save.texts == [("Ilsa's str save fails: Ilsa is unconscious.", "trigger")]
    assert check.texts == [
        ("That cannot happen: Ilsa is unconscious and makes no checks.", "requester")
    ]
