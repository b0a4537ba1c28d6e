"""The narrative room's threads, in Chromium against live domain servers: a resolved thread
is set apart without fading its words, so its "resolved" badge, description and resolution
keep the contrast WCAG AA asks of them (axe-core finds nothing in the threads list)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_the_room, table_for
from tests.browser.test_accessibility_axe import _violations
from tests.browser.test_room_live import _say, asgi_server  # noqa: F401
from tests.browser.test_room_turns import _settle
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_resolved_thread_keeps_readable_contrast(
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
        steps = ("set phase play", "open thread Find it", "resolve thread Find it: at 9")
        for jobs, text in enumerate(steps, start=1):
            _say(gm, text, mode="action")
            _settle(campaign, jobs)
        for page in (gm, ilsa):
            thread = page.locator("#turn-threads li")
            expect(thread).to_have_class("turn-thread")
            expect(thread).to_have_attribute("data-status", "resolved")
            expect(thread.locator(".turn-thread__status")).to_have_text("Resolved")
            expect(thread.locator(".turn-thread__resolution")).to_have_text("at 9")
            assert [v for v in _violations(page) if "turn-thread" in v] == []
