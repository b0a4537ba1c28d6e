"""The room's "Here now" list in Chromium when the session ends while the page is offline."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.browser.test_room_presence_connection import ilsa_here_with_the_gm


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_here_now_is_emptied_when_back_online_the_session_has_ended(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with ilsa_here_with_the_gm(browser, asgi_server, make_user, "Lapsed Keep") as (ilsa, here):
        ilsa.context.set_offline(True)
        expect(here).to_have_text(["Connecting…"])
        # Signed out meanwhile: the socket, back online, is refused twice (4401).
        ilsa.context.clear_cookies()
        ilsa.context.set_offline(False)
        expect(ilsa.locator("#room")).to_have_attribute("data-state", "closed")
        expect(here).to_have_count(0)
        expect(ilsa.locator("#presence-count")).to_be_hidden()
