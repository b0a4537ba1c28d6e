"""The account page at a phone's width: its buttons stay apart when they wrap."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_the_password_and_email_buttons_do_not_touch_on_a_phone(browser, live_server, make_user):
    user = make_user("pat@example.test", display_name="Pat")
    page = _sign_in(browser.new_context(viewport=PHONE), live_server.url, user.email)
    page.goto(f"{live_server.url}/account/")
    password = page.locator("a:has-text('Change password')").bounding_box()
    email = page.locator("a:has-text('Email addresses')").bounding_box()
    # Side by side or one under the other, with room between them either way.
    apart_across = email["x"] - (password["x"] + password["width"])
    apart_down = email["y"] - (password["y"] + password["height"])
    assert max(apart_across, apart_down) >= 6
