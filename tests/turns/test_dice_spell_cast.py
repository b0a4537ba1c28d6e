"""A healing spell's roll shows in the room's dice panel as a potion's does: the dice and the
total, labelled with the spell and who it healed."""

from apps.turns.models import Operation
from apps.turns.services.publish import dice_from
from domain_servers.common import dice
from tests.turns.test_dice import Scripted


def test_the_dice_panel_gets_a_healing_spells_roll():
    roll = dice.roll("2d4+3", Scripted([1, 4]))
    cast = Operation(
        step=1, tool="spell_cast",
        result={"structuredContent": {"roll": roll, "spell_name": "Healing Word",
                                      "target_name": "Bram", "healed": 8, "slot_level": 2}},
    )  # fmt: skip
    assert dice_from([cast]) == [
        {"tool": "spell_cast", "label": "Healing Word · Bram", "expression": "2d4+3",
         "total": 8, "addends": [1, 4, 3], "dropped": []},
    ]  # fmt: skip


def test_a_refused_cast_shows_no_dice_line():
    refused = Operation(
        step=1, tool="spell_cast",
        result={"structuredContent": {"error": {"code": "invalid_request", "message": "no"}}},
    )  # fmt: skip
    assert dice_from([refused]) == []
