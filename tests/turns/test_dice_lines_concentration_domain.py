"""The concentration saves' dice lines from the real D&D 5e domain server's results, as a turn's
journal stores them: Ash (the player's cleric, CON +2) concentrates on Shield of Faith on Bram."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from apps.turns.models import Operation
from apps.turns.services.publish import dice_from
from domain_servers.dnd5e.server import create as create_dnd5e
from tests.domain_servers.conftest import PLAYER, Game
from tests.domain_servers.test_dnd5e_cantrips import _dice
from tests.domain_servers.test_dnd5e_magic_missile import _rewrite
from tests.domain_servers.test_dnd5e_spellcasting import _cast, _party


@pytest.fixture
def dnd(tmp_path: Path):
    game = Game(create_dnd5e, "sagasmith-dnd5e", f"sqlite:///{tmp_path}/d.sqlite3", "a" * 64)
    yield game
    game.close()


@pytest.fixture
def ids(dnd: Game) -> dict[str, str]:
    ids = _party(dnd)
    _cast(dnd, ids["ash"], ids["bram"], "shield_of_faith")
    return ids


def _lines(tool: str, result: dict[str, Any], **kwargs: Any) -> list[dict[str, Any]]:
    return dice_from([Operation(step=1, tool=tool, result={"structuredContent": result})], **kwargs)


def _ash_saves(total: int, success: bool) -> dict[str, Any]:
    line = {
        "tool": "saving_throw",
        "label": "Concentration (CON save) · Ash → Shield of Faith",
        # A player character's save: its natural die goes to the table (Ash's CON is +2).
        "natural": total - 2, "total": total, "mode": "normal", "dc": 10, "success": success,
    }  # fmt: skip
    return line if success else {**line, "ends": "Shield of Faith ends"}


def test_damage_apply_on_the_concentrating_cleric(dnd: Game, ids: dict[str, str], monkeypatch):
    _dice(monkeypatch, 8)  # 8 + 2 = 10 against DC 10
    hurt = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 4})

    # The save names its roller, though damage_apply's result names its target by id alone.
    assert _lines("damage_apply", hurt) == [_ash_saves(10, True)]
    assert _lines("damage_apply", hurt, gm_only=True) == [_ash_saves(10, True)]


def test_a_goblins_hit_on_the_concentrating_cleric(dnd: Game, ids: dict[str, str], monkeypatch):
    _dice(monkeypatch, 15, 3, 5)  # 15 + 4 hits AC 18; 3 + 2 slashing; the save 5 + 2
    attack = dnd.write("attack", {"attacker_id": ids["goblin"], "target_id": ids["ash"]})

    assert _lines("attack", attack) == [
        {"tool": "attack", "label": "Scimitar", "attacker_id": ids["goblin"],
         "target_id": ids["ash"], "attacker_name": "Goblin", "target_name": "Ash",
         "natural": None, "total": 19, "mode": "normal", "hit": True, "critical": False,
         "damage": 5, "damage_type": "slashing"},
        _ash_saves(7, False),
    ]  # fmt: skip


def test_magic_missiles_saves_on_the_concentrating_cleric(
    dnd: Game, ids: dict[str, str], monkeypatch
):
    _dice(monkeypatch, 1, 1, 1, 10, 1)  # three darts of 1 + 1; saves of 12, then 3
    cast = _cast(dnd, ids["wren"], ids["ash"], "magic_missile")

    assert _lines("spell_cast", cast) == [
        {"tool": "spell_cast", "label": "Magic Missile · Ash", "expression": "3d4+3",
         "total": 6, "addends": [1, 1, 1, 3], "dropped": []},
        _ash_saves(12, True),
        _ash_saves(3, False),
    ]  # fmt: skip


def test_dropping_the_concentrating_cleric_to_0_hp_makes_no_line(dnd: Game, ids: dict[str, str]):
    hurt = dnd.write("damage_apply", {"target_id": ids["ash"], "amount": 10})

    assert hurt["concentration"]["reason"] == "Ash dropped to 0 hit points"
    assert _lines("damage_apply", hurt) == []


def test_a_concentrating_goblins_save_shows_its_total_alone(dnd: Game, monkeypatch, tmp_path: Path):
    ids = _party(dnd)

    def concentrating(state: dict[str, Any]) -> None:
        goblin = state["characters"][ids["goblin"]]
        goblin["concentration"] = {"spell": "shield_of_faith", "target_id": ids["goblin"]}
        goblin["effects"] = [
            {"spell": "shield_of_faith", "name": "Shield of Faith", "ac_bonus": 2,
             "from": ids["goblin"]},
        ]  # fmt: skip

    _rewrite(dnd, tmp_path / "d.sqlite3", concentrating)
    _dice(monkeypatch, 14, 2, 10)  # 14 + 3 hits AC 17; 2 + 1; its save 10 + 0
    # The player's own attack: the domain shows them the goblin's save narrowed.
    attack = dnd.write(
        "attack", {"attacker_id": ids["ash"], "target_id": ids["goblin"]}, sub=PLAYER
    )
    line = {
        "tool": "saving_throw", "label": "Concentration (CON save) · Goblin → Shield of Faith",
        "natural": None, "total": 10, "mode": "normal", "dc": 10, "success": True,
    }  # fmt: skip

    assert _lines("attack", attack)[1] == line
    # Nothing to show even on a GM's line: the player's result never had it.
    assert _lines("attack", attack, gm_only=True)[1] == line
