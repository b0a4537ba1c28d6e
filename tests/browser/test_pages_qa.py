"""Pages outside the room, in a real browser: the sign-in card sits inside a phone's screen
with a margin."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import asgi_server  # noqa: F401

PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_sign_in_card_keeps_a_margin_from_the_phone_screen_edges(
    browser,
    asgi_server,  # noqa: F811
):
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{asgi_server}/accounts/login/")
        box = page.locator("main.auth-page").bounding_box()
        assert (box["x"], box["x"] + box["width"]) == (16, 374)
    finally:
        context.close()
