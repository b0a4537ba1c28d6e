"""The narrative story lists (clocks, facts) across a live refresh, in Chromium against uvicorn:
an item that is still there stays the same element, updated in place (a clock's count), so a
screen reader keeps its place in the list and the lists do not flicker."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room, table_for
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401

ITEMS = "#turn-clocks li[data-clock], #turn-facts li[data-fact]"
MARK = f"() => document.querySelectorAll('{ITEMS}').forEach((item) => {{ item.kept = true; }})"
KEPT = f"() => [...document.querySelectorAll('{ITEMS}')].map((item) => item.kept === true)"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_clocks_and_facts_keep_their_elements_when_a_clock_advances(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="narrative", name="Fog Harbour",
        players=[("nia@example.test", "Nia Player")],
    )  # fmt: skip
    with in_the_room(browser, asgi_server, campaign, "gm@example.test", "nia@example.test") as (
        gm,
        nia,
    ):
        jobs = 0
        for text in (
            "set phase play",
            "create clock Tide rising with 6 segments",
            "record fact The ferryman smuggles salt",
        ):
            _say(gm, text, mode="action")
            jobs += 1
            _settle(campaign, jobs)
        for page in (gm, nia):
            expect(page.locator("#turn-facts li")).to_have_count(1)
            expect(page.locator("#turn-clocks .turn-clock__count")).to_have_text("0/6")
            page.evaluate(MARK)

        _say(gm, "advance clock tide by 2", mode="action")
        _settle(campaign, jobs + 1)
        for page in (gm, nia):
            expect(page.locator("#turn-clocks .turn-clock__count")).to_have_text("2/6")
            assert page.evaluate(KEPT) == [True, True]
