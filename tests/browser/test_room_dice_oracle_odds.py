"""The oracle's line in the Chromium dice list says the odds its question was asked at, as the
oracle's reply does; an answer stored before lines carried odds is drawn as it was."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_panels_ui import ONE_ROLL, _lines
from tests.browser.test_room_live import asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_oracles_dice_line_says_the_odds_it_was_asked_at(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="narrative", name="Weighed Odds",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    asked = {"tool": "oracle_ask", "label": "Is the door locked?", "expression": "d100"}
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (_gm, ilsa):
        ilsa.evaluate(ONE_ROLL, {**asked, "total": 71, "result": "yes, but",
                                 "sequence": 330001})  # fmt: skip
        ilsa.evaluate(ONE_ROLL, {**asked, "total": 4, "result": "yes, and",
                                 "odds": "very likely odds", "sequence": 330002})  # fmt: skip
        expect(ilsa.locator("#turn-dice li")).to_have_count(2)
        assert _lines(ilsa) == [
            "d100 = 4 (very likely odds) YES, AND",
            "d100 = 71 YES, BUT",
        ]
        odds = ilsa.locator("#turn-dice li .turn-roll__detail")
        expect(odds).to_have_text(["(very likely odds)"])
