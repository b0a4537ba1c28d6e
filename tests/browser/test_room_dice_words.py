"""The dice list in Chromium says a keep in words, as the timeline does ("4d6, drop lowest",
"1d20 with advantage"), not in the rules' notation (4d6kh3, 2d20kh1)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_panels_ui import ONE_ROLL, _lines
from tests.browser.test_room_live import asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_dice_list_says_a_keep_in_words(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="dnd5e", name="Word Keep",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    rolls = [
        ({"expression": "4d6kh3", "total": 9, "addends": [5, 3, 1], "dropped": [1]},
         "4d6, drop lowest = 9 (5 + 3 + 1, dropped 1)"),
        ({"expression": "2d20kh1", "total": 10, "addends": [10], "dropped": [8]},
         "1d20 with advantage = 10 (dropped 8)"),
        ({"expression": "2d20kl1+3", "total": 7, "addends": [4, 3], "dropped": [15]},
         "1d20+3 with disadvantage = 7 (4 + 3, dropped 15)"),
        ({"expression": "4d6kl3", "total": 6, "addends": [1, 2, 3], "dropped": [6]},
         "4d6, drop highest = 6 (1 + 2 + 3, dropped 6)"),
        ({"expression": "4d6kh2", "total": 11, "addends": [6, 5], "dropped": [2, 1]},
         "4d6, keep highest 2 = 11 (6 + 5, dropped 2, 1)"),
        ({"expression": "5d8kl2-1", "total": 2, "addends": [1, 2, -1], "dropped": [4, 5, 8]},
         "5d8-1, keep lowest 2 = 2 (1 + 2 - 1, dropped 4, 5, 8)"),
        # No keep: the expression as it is.
        ({"expression": "3d6+1", "total": 11, "addends": [3, 3, 4, 1], "dropped": []},
         "3d6+1 = 11 (3 + 3 + 4 + 1)"),
    ]  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        for sequence, (roll, _line) in enumerate(rolls, start=300000):
            ilsa.evaluate(ONE_ROLL, {**roll, "sequence": sequence})
        expect(ilsa.locator("#turn-dice li")).to_have_count(len(rolls))
        assert _lines(ilsa) == [line for _roll, line in reversed(rolls)]
