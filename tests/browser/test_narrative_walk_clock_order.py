"""The narrative room's clocks, in Chromium against live domain servers: a clock that is done
goes below those still running (as a resolved thread goes below the open ones), so the clocks
a table is watching stay at the top of the list, on the GM's page and a player's."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_complete_clock_goes_below_the_running_ones(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign, _users = table_for(
        make_user, system_id="narrative", name="Salt Road",
        players=[("ilsa@example.test", "Ilsa Player")],
    )  # fmt: skip
    with gm_and_ilsa_in_the_room(browser, asgi_server, campaign) as (gm, ilsa):
        jobs = 0
        for text in (
            "set phase play",
            "create clock Alarm 2",
            "create clock Ritual 6",
            "advance clock ritual",
            "advance clock alarm by 2",
        ):
            _say(gm, text, mode="action")
            jobs += 1
            _settle(campaign, jobs)
        for page in (gm, ilsa):
            clocks = page.locator("#turn-clocks li")
            expect(clocks.locator(".turn-clock__name")).to_have_text(["Ritual", "Alarm"])
            expect(clocks.locator(".turn-clock__count")).to_have_text(["1/6", "2/2"])
            expect(clocks.nth(1).locator(".turn-clock__done")).to_have_text("Complete")

        # A new clock of the finished one's name is a running one: above the finished one.
        _say(gm, "create clock Alarm 4", mode="action")
        _settle(campaign, jobs + 1)
        for page in (gm, ilsa):
            clocks = page.locator("#turn-clocks li")
            expect(clocks.locator(".turn-clock__name")).to_have_text(["Ritual", "Alarm", "Alarm"])
            expect(clocks.locator(".turn-clock__count")).to_have_text(["1/6", "0/4", "2/2"])
            expect(page.locator("#turn-clocks li.is-complete")).to_have_count(1)
            expect(clocks.nth(2)).to_have_class("turn-clock is-complete")
