"""The account page's profile on a phone: the email address reads whole on its line, not split
mid-name ("player1@sagasmith.t / est") beside its label."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LINES = """(el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""


def test_the_profile_email_is_not_split_at_390_px(browser, live_server, make_user):
    user = make_user("player1@sagasmith.test", display_name="Ash")
    page = _sign_in(browser.new_context(viewport=PHONE), live_server.url, user.email)
    page.goto(f"{live_server.url}/account/")
    email = page.locator(".facts dd").first
    assert email.inner_text() == "player1@sagasmith.test"
    assert email.evaluate(LINES) == 1
    assert page.evaluate("document.documentElement.scrollWidth") == 390
