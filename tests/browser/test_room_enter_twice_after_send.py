"""Enter pressed twice in quick succession to send, in Chromium against uvicorn: the message
goes once, and the second Enter, on the box the send just emptied, raises no "Type something to
send first." alert; one on a box written in since, or a moment later, still does."""

from __future__ import annotations

import pytest

from tests.browser.conftest import in_the_room
from tests.browser.test_room_composer_keyboard import _gm_and_pat
from tests.browser.test_room_live import _wait_for_texts, asgi_server  # noqa: F401


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_second_enter_right_after_a_send_raises_no_alert(
    browser,
    asgi_server,  # noqa: F811
    make_user,
):
    from playwright.sync_api import expect

    campaign = _gm_and_pat(make_user)
    with in_the_room(browser, asgi_server, campaign, "gm@example.test") as (gm,):
        body = gm.locator("#composer-body")
        error = gm.locator("#composer-error")

        body.fill("Hello table")
        body.press("Enter")
        body.press("Enter")
        _wait_for_texts(gm, ["Hello table"])
        expect(error).to_be_hidden()
        expect(body).not_to_have_attribute("aria-invalid", "true")

        # Written in and emptied again right after a send: no repeat, so it is said at once.
        body.fill("Hello again")
        body.press("Enter")
        body.press("y")
        body.press("Backspace")
        body.press("Enter")
        expect(error).to_have_text("Type something to send first.")
        body.press_sequentially("x")
        expect(error).to_be_hidden()

        # Well after the send, an empty box is a mistake worth saying.
        body.fill("")
        gm.wait_for_timeout(1200)
        body.press("Enter")
        expect(error).to_have_text("Type something to send first.")
