"""Taking one of the game master's options ("Try: …") puts its words in the composer, and the
composer's notes follow, in Chromium against uvicorn: the characters-left count and the "Type
something to send first." error describe the text now in the box, not the one it replaced."""

from __future__ import annotations

import pytest

from tests.browser.conftest import gm_and_ilsa_in_combat
from tests.browser.test_room_live import asgi_server  # noqa: F401
from tests.turns.rooms_support import eager  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_taking_an_option_updates_the_count_and_clears_the_empty_error(
    browser,
    asgi_server,  # noqa: F811
    live_domains,  # noqa: F811
    eager,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    with gm_and_ilsa_in_combat(browser, asgi_server, make_user, name="Fresh Notes") as (
        _campaign,
        gm,
        _ilsa,
    ):
        body, count = gm.locator("#composer-body"), gm.locator("#composer-count")
        option = gm.locator("#composer-suggestions button").first
        expect(option).to_be_visible()
        words = option.inner_text()

        # Nearly at the limit: the count shows how little is left.
        body.fill("x" * 3990)
        expect(count).to_have_text("10 characters left")
        option.click()
        expect(body).to_have_value(words)
        expect(count).to_be_hidden()

        # Sent empty: the error says so; an option taken fills the box and ends it.
        body.fill("")
        body.press("Enter")
        expect(gm.locator("#composer-error")).to_have_text("Type something to send first.")
        option.click()
        expect(body).to_have_value(words)
        expect(gm.locator("#composer-error")).to_be_hidden()
