"""The staff's grant form is sent once: a double click or a second Enter would grant the
credits twice."""

from __future__ import annotations

import pytest

from tests.browser.test_accounts_invite_form import PHONE, SENDS_COUNTED, _staff
from tests.browser.test_room_live import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADD = "/admin/quota/quotagrant/add/"


def test_a_sent_grant_form_is_not_sent_twice(browser, live_server, make_user):
    from apps.quota.models import QuotaGrant

    _staff(make_user)
    page = _sign_in(
        browser.new_context(viewport=PHONE), live_server.url, "staff.member@example.test"
    )
    page.goto(f"{live_server.url}{ADD}")
    page.evaluate(SENDS_COUNTED)
    page.route(f"{live_server.url}{ADD}", lambda route: route.fulfill(status=204))
    page.fill("#id_amount", "500")
    page.click("input[name=_save]", no_wait_after=True)
    page.wait_for_selector("input[name=_save][disabled]")
    page.press("#id_amount", "Enter", no_wait_after=True)
    assert page.evaluate("window.sends") == 1
    assert page.locator("#quotagrant_form input[type=submit]:not([disabled])").count() == 0
    assert page.locator("[data-progress-text]").is_visible()
    assert QuotaGrant.objects.filter(source="staff").count() == 0
