"""A short rest's Hit Dice roll shows in the room's dice panel as a spell's does: the dice and
the total, labelled Hit Dice and who rested."""

from apps.turns.models import Operation
from apps.turns.services.publish import dice_from
from domain_servers.common import dice
from tests.turns.test_dice import Scripted


def test_the_dice_panel_gets_a_short_rests_hit_dice_roll():
    roll = dice.roll("2d10+4", Scripted([3, 9]))
    rest = Operation(
        step=1, tool="short_rest",
        result={"structuredContent": {"roll": roll, "character_name": "Ilsa", "healed": 16,
                                      "dice_spent": 2}},
    )  # fmt: skip
    assert dice_from([rest]) == [
        {"tool": "short_rest", "label": "Hit Dice · Ilsa", "expression": "2d10+4",
         "total": 16, "addends": [3, 9, 4], "dropped": []},
    ]  # fmt: skip


def test_a_refused_rest_shows_no_dice_line():
    refused = Operation(
        step=1, tool="short_rest",
        result={"structuredContent": {"error": {"code": "invalid_request", "message": "no"}}},
    )  # fmt: skip
    assert dice_from([refused]) == []
