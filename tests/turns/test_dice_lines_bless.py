"""A blessed roll's dice line carries its Bless die (`"bless": n`) wherever the line shows the
natural d20 (a player character's line, or any GM-only line), and never on a monster's line to
the table: with the total and the natural die it would give away the modifier. A blessed death
save's line shows its total (d20 + d4), not the d20 alone. The results are shaped as the
domain's Bless tests show them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from apps.turns.models import Operation
from apps.turns.services.publish import dice_from
from domain_servers.dnd5e.server import create as create_dnd5e
from tests.domain_servers.conftest import Game
from tests.domain_servers.test_dnd5e_bless import _bless
from tests.domain_servers.test_dnd5e_cantrips import _dice
from tests.domain_servers.test_dnd5e_spellcasting import _party


def _op(tool: str, result: dict[str, Any]) -> Operation:
    return Operation(step=1, tool=tool, result={"structuredContent": result})


def _attack(kind: str, **to_hit: Any) -> dict[str, Any]:
    return {
        "attack": "Longsword", "attacker_id": "pc-2", "attacker_kind": kind,
        "attacker_name": "Bram", "target_id": "mon-4", "target_name": "Goblin", "hit": True,
        "critical": False,
        "to_hit": {"natural": 8, "rolls": [8], "mode": "normal", "bonus": 4, "total": 15,
                   "target_ac": 15, **to_hit},
        "damage": {"expression": "1d8+2", "total": 6, "damage_type": "slashing"},
    }  # fmt: skip


BRAM_HITS = {
    "tool": "attack", "label": "Longsword", "attacker_id": "pc-2", "target_id": "mon-4",
    "attacker_name": "Bram", "target_name": "Goblin", "natural": 8, "total": 15,
    "mode": "normal", "hit": True, "critical": False, "damage": 6, "damage_type": "slashing",
}  # fmt: skip


def test_a_blessed_characters_attack_line_carries_the_bless_die() -> None:
    lines = dice_from([_op("attack", _attack("pc", bless={"roll": 3}))])
    assert lines == [{**BRAM_HITS, "bless": 3}]


def test_an_unblessed_attack_line_has_no_bless_key() -> None:
    assert dice_from([_op("attack", _attack("pc", total=12))]) == [{**BRAM_HITS, "total": 12}]


def test_a_blessed_monsters_attack_shows_the_table_neither_die() -> None:
    (line,) = dice_from([_op("attack", _attack("monster", bless={"roll": 3}))])
    assert line == {**BRAM_HITS, "natural": None}


def test_a_gm_only_line_shows_a_blessed_monsters_bless_die() -> None:
    (line,) = dice_from([_op("attack", _attack("monster", bless={"roll": 3}))], gm_only=True)
    assert line == {**BRAM_HITS, "bless": 3}


def _save(kind: str, **extra: Any) -> dict[str, Any]:
    return {
        "natural": 8, "rolls": [8], "mode": "normal", "ability": "str", "ability_modifier": 2,
        "proficiency": 2, "bonus": 0, "bless": {"roll": 3}, "total": 15, "dc": 15,
        "success": True, "character_id": "pc-2", "character_name": "Bram",
        "character_kind": kind, "kind": "save", "skill": None, **extra,
    }  # fmt: skip


BRAM_SAVES = {
    "tool": "saving_throw", "label": "Str save · Bram", "natural": 8, "total": 15,
    "mode": "normal", "dc": 15, "success": True,
}  # fmt: skip


def test_a_blessed_characters_save_line_carries_the_bless_die() -> None:
    assert dice_from([_op("saving_throw", _save("pc"))]) == [{**BRAM_SAVES, "bless": 3}]


def test_a_blessed_monsters_save_shows_the_table_its_total_alone() -> None:
    assert dice_from([_op("saving_throw", _save("monster"))]) == [{**BRAM_SAVES, "natural": None}]


def test_a_gm_only_line_shows_a_blessed_monsters_save_die() -> None:
    lines = dice_from([_op("saving_throw", _save("monster"))], gm_only=True)
    assert lines == [{**BRAM_SAVES, "bless": 3}]


def test_a_blessed_concentration_save_carries_the_bless_die() -> None:
    save = _save("pc", ability="con", total=13, dc=10)
    held = {"spell": "Shield of Faith", "kept": True, "save": save}
    hurt = {"target_id": "pc-2", "concentration": held}
    assert dice_from([_op("damage_apply", hurt)]) == [
        {"tool": "saving_throw", "label": "Concentration (CON save) · Bram → Shield of Faith",
         "natural": 8, "bless": 3, "total": 13, "mode": "normal", "dc": 10, "success": True},
    ]  # fmt: skip


def _death_save(**extra: Any) -> dict[str, Any]:
    return {
        "natural": 8, "outcome": "success", "death_saves": {"successes": 1, "failures": 0},
        "hp": {"current": 0, "max": 12, "temp": 0}, "conditions": ["prone", "unconscious"],
        "character_id": "pc-2", "character_name": "Bram", **extra,
    }  # fmt: skip


DEATH_SAVE = {
    "tool": "death_save", "label": "Death save · Bram", "expression": "d20", "total": 8,
    "result": "success",
}  # fmt: skip


def test_a_blessed_death_save_shows_its_total_and_bless_die() -> None:
    blessed = _death_save(bless={"roll": 2}, total=10)
    assert dice_from([_op("death_save", blessed)]) == [{**DEATH_SAVE, "total": 10, "bless": 2}]


def test_an_unblessed_death_save_shows_its_d20() -> None:
    lines = dice_from([_op("death_save", _death_save(outcome="failure", natural=9))])
    assert lines == [{**DEATH_SAVE, "total": 9, "result": "failure"}]


# From the real D&D 5e server: Ash (the player's cleric) blesses Bram (the other player's
# fighter) and the goblin.


@pytest.fixture
def dnd(tmp_path: Path):
    game = Game(create_dnd5e, "sagasmith-dnd5e", f"sqlite:///{tmp_path}/d.sqlite3", "a" * 64)
    yield game
    game.close()


def test_the_domains_blessed_attacks_lines(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["bram"], ids["goblin"])
    _dice(monkeypatch, 8, 3, 4, 9, 2, 3)  # Bram: 8 + 3 + 4 = 15 hits; the goblin: 9 + 2 + 4

    bram = dnd.write("attack", {"attacker_id": ids["bram"], "target_id": ids["goblin"]})
    goblin = dnd.write("attack", {"attacker_id": ids["goblin"], "target_id": ids["bram"]})

    assert dice_from([_op("attack", bram)])[0] == {
        "tool": "attack", "label": "Longsword", "attacker_id": ids["bram"],
        "target_id": ids["goblin"], "attacker_name": "Bram", "target_name": "Goblin",
        "natural": 8, "bless": 3, "total": 15, "mode": "normal", "hit": True,
        "critical": False, "damage": bram["damage"]["total"], "damage_type": "slashing",
    }  # fmt: skip
    assert [
        (line["natural"], line.get("bless"), line["total"])
        for line in dice_from([_op("attack", goblin)])
        + dice_from([_op("attack", goblin)], gm_only=True)
    ] == [(None, None, 15), (9, 2, 15)]


def test_the_domains_blessed_death_save_line(dnd: Game, monkeypatch) -> None:
    ids = _party(dnd)
    _bless(dnd, ids["ash"], ids["bram"])
    bram = dnd.state()["characters"][ids["bram"]]
    dnd.write("damage_apply", {"target_id": ids["bram"], "amount": bram["hp"]["current"]})
    _dice(monkeypatch, 8, 2)

    save = dnd.write("death_save", {"character_id": ids["bram"]})

    assert dice_from([_op("death_save", save)]) == [
        {"tool": "death_save", "label": "Death save · Bram", "expression": "d20", "total": 10,
         "bless": 2, "result": "success"},
    ]  # fmt: skip
