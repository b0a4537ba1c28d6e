"""The Chromium dice list marks where each combat started: rolls from an earlier fight under a
reused name ("Goblin 2") are set apart from the new fight's by a list item saying so."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import asgi_server  # noqa: F401

# One timeline entry carrying several rolls, as a turn's narration does.
ROLLS = """([sequence, dice]) => {
  document.dispatchEvent(new CustomEvent("room:event", {detail: {type: "entry",
    entry: {event_type: "turn.narration", sequence, data: {dice}}}}));
}"""


def _attack(target: str) -> dict:
    return {"tool": "attack", "label": "Shortsword", "attacker_name": "Briar",
            "target_name": target, "natural": 12, "total": 17, "hit": True,
            "critical": False, "damage": 6, "damage_type": "piercing"}  # fmt: skip


def _initiative(name: str, total: int) -> dict:
    return {"tool": "combat_start", "label": f"Initiative · {name}", "total": total}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_dice_list_marks_where_a_new_combat_started(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Two Fights",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        ilsa.evaluate(ROLLS, [410001, [_initiative("Briar", 15), _initiative("Goblin 2", 9)]])
        ilsa.evaluate(ROLLS, [410002, [_attack("Goblin 2")]])
        ilsa.evaluate(ROLLS, [410004, [_attack("Goblin 2")]])
        # The second fight's start, arriving after a roll made in it (a late replay).
        ilsa.evaluate(ROLLS, [410003, [_initiative("Briar", 11), _initiative("Goblin 2", 18)]])
        items = ilsa.locator("#turn-dice > li")
        expect(items).to_have_count(8)
        marks = ilsa.locator("#turn-dice > li.turn-dice__combat")
        expect(marks).to_have_text(["Combat started", "Combat started"])
        titles = items.evaluate_all(
            "items => items.map((li) => (li.querySelector('.turn-roll__title') || li).textContent)"
        )
        assert titles == [
            "Shortsword · Briar → Goblin 2",
            "Initiative · Briar",
            "Initiative · Goblin 2",
            "Combat started",
            "Shortsword · Briar → Goblin 2",
            "Initiative · Briar",
            "Initiative · Goblin 2",
            "Combat started",
        ]
        # A list item with words, so a screen reader reads it in its place among the rolls.
        expect(marks.first).to_have_role("listitem")
        # Only rolls are counted where the list says how many it holds.
        ilsa.set_viewport_size({"width": 390, "height": 844})
        expect(ilsa.locator("#turn-dice-more")).to_have_text("Show all 6 rolls")
