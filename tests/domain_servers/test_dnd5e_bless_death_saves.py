"""Bless on death saves (SRD 5.1): a death saving throw is a saving throw, so a blessed dying
creature adds 1d4 to it (10 or more succeeds); a natural 1 and a natural 20 are still the
die's own."""

from __future__ import annotations

from typing import Any

import pytest

from tests.domain_servers.conftest import Game
from tests.domain_servers.test_dnd5e_bless import _bless
from tests.domain_servers.test_dnd5e_cantrips import _dice
from tests.domain_servers.test_dnd5e_spellcasting import _party


def _dying_blessed_bram(dnd: Game) -> dict[str, str]:
    """Bram blessed by Ash, then dropped to 0 HP (out of combat: the GM calls the save)."""
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["bram"])
    bram = dnd.state()["characters"][ids["bram"]]
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": bram["hp"]["current"]})
    return ids


def _death_save(dnd: Game, ids: dict[str, str]) -> dict[str, Any]:
    result = dnd.write("death_save", {"character_id": ids["bram"]})
    result.pop("receipt")
    result.pop("random_stream_receipt", None)
    return result


def test_a_blessed_death_save_of_8_and_a_d4_of_2_succeeds(dnd: Game, monkeypatch) -> None:
    ids = _dying_blessed_bram(dnd)
    _dice(monkeypatch, 8, 2)

    save = _death_save(dnd, ids)

    assert save == {
        "natural": 8,
        "bless": {"roll": 2},
        "total": 10,
        "outcome": "success",
        "death_saves": {"successes": 1, "failures": 0},
        "hp": {"current": 0, "max": save["hp"]["max"], "temp": 0},
        "conditions": ["prone", "unconscious"],
        "character_id": ids["bram"],
        "character_name": "Bram",
    }


@pytest.mark.parametrize(
    ("natural", "outcome", "death_saves"),
    [
        (1, "critical_failure", {"successes": 0, "failures": 2}),
        (20, "revived", {"successes": 0, "failures": 0}),
        (5, "failure", {"successes": 0, "failures": 1}),
    ],
)
def test_the_natural_die_still_decides_1_and_20(
    dnd: Game, monkeypatch, natural: int, outcome: str, death_saves: dict[str, int]
) -> None:
    ids = _dying_blessed_bram(dnd)
    _dice(monkeypatch, natural, 4)  # 5 + 4 = 9: still a failure

    save = _death_save(dnd, ids)

    assert (save["total"], save["outcome"], save["death_saves"]) == (
        natural + 4,
        outcome,
        death_saves,
    )


def test_an_unblessed_death_save_reads_as_before(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    bram = dnd.state()["characters"][ids["bram"]]
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": bram["hp"]["current"]})
    _dice(monkeypatch, 9)  # one die

    save = _death_save(dnd, ids)

    assert ("bless" in save, "total" in save, save["outcome"]) == (False, False, "failure")


def test_a_blessed_death_save_answers_as_its_output_schema_says(dnd: Game) -> None:
    import jsonschema

    from domain_servers.dnd5e.tools import tools

    ids = _dying_blessed_bram(dnd)
    spec = next(t for t in tools() if t.name == "death_save")

    jsonschema.validate(
        dnd.write("death_save", {"character_id": ids["bram"]}), spec.output_schema()
    )
    assert "bless" in spec.output_schema()["properties"]
