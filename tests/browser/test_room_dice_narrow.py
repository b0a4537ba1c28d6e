"""On a phone the room's Dice list folds to its newest five rolls: a "Combat started" mark is
not one of them (it hid a roll when it was), and shows with the initiative rolls it sits
under, hidden when they are."""

from __future__ import annotations

import pytest

from tests.browser.conftest import table_for
from tests.browser.test_room_dice_combats import ROLLS, _attack, _initiative
from tests.browser.test_room_history import _open
from tests.browser.test_room_live import _sign_in, asgi_server  # noqa: F401

PHONE = {"width": 390, "height": 844}
# The text of each row shown, newest first: a roll's title, a mark's words.
SHOWN = """items => items.filter((li) => li.checkVisibility()).map(
  (li) => (li.querySelector('.turn-roll__title') || li).textContent)"""


def _roll(label: str, total: int) -> dict:
    return {"tool": "roll", "label": label, "expression": "1d20", "total": total}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_folded_dice_list_counts_rolls_not_the_combat_mark(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Small Screen",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    context = browser.new_context(viewport=PHONE)
    try:
        ilsa = _sign_in(context, asgi_server, "ilsa@example.test")
        _open(ilsa, f"{asgi_server}/campaigns/{campaign.id}/room/")
        ilsa.evaluate(ROLLS, [420001, [_roll("Old 1", 3), _roll("Old 2", 4), _roll("Old 3", 5)]])
        ilsa.evaluate(ROLLS, [420002, [_initiative("Briar", 15), _initiative("Goblin 2", 9)]])
        ilsa.evaluate(ROLLS, [420003, [_attack("Goblin 2")]])
        rows = ilsa.locator("#turn-dice > li")
        expect(rows).to_have_count(7)

        # Five rolls shown, and the mark between them, under the initiative it follows.
        assert rows.evaluate_all(SHOWN) == [
            "Shortsword · Briar → Goblin 2",
            "Initiative · Briar",
            "Initiative · Goblin 2",
            "Combat started",
            "Old 1",
            "Old 2",
        ]
        more = ilsa.locator("#turn-dice-more")
        expect(more).to_have_text("Show all 6 rolls")

        # Three more blows push the initiative it sits under out of the five: it goes too.
        ilsa.evaluate(ROLLS, [420004, [_attack("Goblin 2")] * 3])
        expect(rows).to_have_count(10)
        assert rows.evaluate_all(SHOWN) == [
            "Shortsword · Briar → Goblin 2",
            "Shortsword · Briar → Goblin 2",
            "Shortsword · Briar → Goblin 2",
            "Shortsword · Briar → Goblin 2",
            "Initiative · Briar",
        ]

        more.click()
        expect(more).to_have_attribute("aria-expanded", "true")
        assert len(rows.evaluate_all(SHOWN)) == 10
    finally:
        context.close()
