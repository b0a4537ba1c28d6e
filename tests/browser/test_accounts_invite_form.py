"""The staff's invite form, as the product's other forms behave: a refused entry takes the
focus to its field, and a sent form cannot be sent again (each send makes an invite)."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
ADD = "/admin/accounts/registrationinvite/add/"


def _staff(make_user):
    staff = make_user(
        "staff.member@example.test", display_name="Sam Staff", is_staff=True, is_superuser=True
    )
    return staff


def test_a_refused_invite_takes_the_focus_to_the_field_to_correct(browser, live_server, make_user):
    from apps.accounts.models import RegistrationInvite

    _staff(make_user)
    page = _sign_in(
        browser.new_context(viewport=PHONE), live_server.url, "staff.member@example.test"
    )
    page.goto(f"{live_server.url}{ADD}")
    page.fill("#id_email", "newcomer@example.test")
    page.fill("#id_max_uses", "3")
    page.click("input[name=_save]")
    page.wait_for_selector(".errornote")
    # The second field is the one refused (an address-bound invite has one use), not the first.
    assert page.evaluate("document.activeElement.id") == "id_max_uses"
    assert RegistrationInvite.objects.count() == 0


def test_a_sent_invite_form_is_not_sent_twice(browser, live_server, make_user):
    from apps.accounts.models import RegistrationInvite

    _staff(make_user)
    page = _sign_in(
        browser.new_context(viewport=PHONE), live_server.url, "staff.member@example.test"
    )
    page.goto(f"{live_server.url}{ADD}")
    # Each send the browser makes, counted as the page sends it (the POST itself is answered
    # "No Content", so the page stays as it is while the test looks at it).
    page.evaluate(SENDS_COUNTED)
    page.route(f"{live_server.url}{ADD}", lambda route: route.fulfill(status=204))
    page.fill("#id_note", "for the book club")
    page.click("input[name=_save]", no_wait_after=True)
    page.wait_for_selector("input[name=_save][disabled]")
    # A second send, as a second press of Enter in a field would make it.
    page.press("#id_note", "Enter", no_wait_after=True)
    assert page.evaluate("window.sends") == 1
    assert page.locator("#registrationinvite_form input[type=submit]:not([disabled])").count() == 0
    assert page.locator("[data-progress-text]").is_visible()
    assert RegistrationInvite.objects.count() == 0


SENDS_COUNTED = """() => {
  window.sends = 0;
  document.addEventListener("submit", (event) => { if (!event.defaultPrevented) window.sends++; });
}"""
