"""A blessed roll in the Dice panel, in Chromium: its Bless d4 said in the arithmetic with the
d20 and the modifier ("d20 8 + 3 (Bless) + 4 = 15"), as the turn's dice line carries it
(`bless`); a line without `bless` reads as it always has."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import asgi_server  # noqa: F401

# One dice line as the room's narration event carries it (dice_from's shape).
ONE_LINE = """line => {
  document.dispatchEvent(new CustomEvent("room:event", {detail: {type: "entry",
    entry: {event_type: "turn.narration", sequence: line.sequence, data: {dice: [line]}}}}));
}"""

SAVE = {"tool": "saving_throw", "label": "Str save · Ilsa", "mode": "normal", "dc": 15}
ATTACK = {
    "tool": "attack", "label": "Longsword", "attacker_id": "", "target_id": "",
    "attacker_name": "Ilsa", "target_name": "Goblin", "mode": "normal", "hit": True,
    "critical": False, "damage": 6, "damage_type": "slashing",
}  # fmt: skip
DEATH_SAVE = {"tool": "death_save", "label": "Death save · Ilsa", "expression": "d20"}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_blessed_roll_says_its_bless_die_in_the_arithmetic(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Chapel Keep",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        lines = ilsa.locator("#turn-dice li .turn-roll__line")
        shown = [
            ({**SAVE, "natural": 8, "bless": 3, "total": 15, "success": True},
             "d20 8 + 3 (Bless) + 4 = 15 · DC 15 success"),
            # No modifier, and a negative one: the sum still adds up.
            ({**SAVE, "natural": 8, "bless": 3, "total": 11, "success": False},
             "d20 8 + 3 (Bless) = 11 · DC 15 failure"),
            ({**SAVE, "natural": 8, "bless": 3, "total": 10, "success": False},
             "d20 8 + 3 (Bless) - 1 = 10 · DC 15 failure"),
            ({**SAVE, "natural": 12, "total": 14, "success": False},
             "d20 12 + 2 = 14 · DC 15 failure"),
            ({**ATTACK, "natural": 8, "bless": 3, "total": 15},
             "d20 8 + 3 (Bless) + 4 = 15 · hit, 6 slashing damage"),
            ({**ATTACK, "natural": 8, "total": 12}, "d20 8 + 4 = 12 · hit, 6 slashing damage"),
            ({**DEATH_SAVE, "bless": 2, "total": 10, "result": "success"},
             "d20 8 + 2 (Bless) = 10 success"),
            ({**DEATH_SAVE, "total": 9, "result": "failure"}, "d20 = 9 failure"),
        ]  # fmt: skip
        for sequence, (line, text) in enumerate(shown, start=300001):
            ilsa.evaluate(ONE_LINE, {**line, "sequence": sequence})
            expect(lines.first).to_have_text(text)
