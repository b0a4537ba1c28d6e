"""A badge keeps its words on one line on a phone: beside a long address in a squeezed table
column, "this one" stays a pill instead of breaking into a stack of one-word lines."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
BADGE_LINES = """(el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""


def test_the_current_session_badge_stays_on_one_line_at_390_px(browser, live_server, make_user):
    from apps.accounts.models import UserSession

    user = make_user("pat@example.test", display_name="Pat")
    page = _sign_in(browser.new_context(viewport=PHONE), live_server.url, user.email)
    # An IPv6 address: the widest thing a session row holds, and it does not wrap.
    UserSession.objects.filter(user=user).update(ip_address="2001:db8:85a3:1234:5678:8a2e:370:7334")
    page.goto(f"{live_server.url}/account/")
    badge = page.locator("td .badge")
    assert badge.inner_text() == "this one"
    assert badge.evaluate(BADGE_LINES) == 1
