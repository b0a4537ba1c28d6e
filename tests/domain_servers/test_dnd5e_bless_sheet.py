"""The sheet's spell list says how many creatures each spell targets at its own level: Bless
three (one more per slot level above 1st), every other one."""

from __future__ import annotations

from tests.domain_servers.conftest import PLAYER, Game
from tests.domain_servers.test_dnd5e_spellcasting import _char, _party


def test_the_sheet_says_how_many_creatures_each_spell_targets(dnd: Game) -> None:
    ids = _party(dnd)

    listed = _char(dnd, ids["ash"], PLAYER)["sheet"]["spells"]

    assert listed[1] == {
        "key": "bless",
        "name": "Bless",
        "level": 1,
        "casting": "action",
        "range": 30,
        "touch": False,
        "concentration": True,
        "targets": 3,
    }
    assert [s["targets"] for s in listed] == [1, 3, 1, 1, 1]
