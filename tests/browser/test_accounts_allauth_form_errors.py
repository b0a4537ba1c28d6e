"""allauth's forms behave as the product's own: a refused entry takes the focus to the field
to correct (or to the form's error), and a sent form is not sent twice."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import PASSWORD, _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
FOCUSED = "document.activeElement.id || document.activeElement.className"


def test_a_wrong_current_password_takes_the_focus_to_its_field(browser, live_server, make_user):
    user = make_user("pat@example.test", display_name="Pat", password=PASSWORD)
    page = _sign_in(browser.new_context(viewport=PHONE), live_server.url, user.email)
    page.goto(f"{live_server.url}/accounts/password/change/")
    page.fill("#id_oldpassword", "not-my-password")
    page.fill("#id_password1", "a-new-and-long-passphrase-7")
    page.fill("#id_password2", "a-new-and-long-passphrase-7")
    page.click("main button[type=submit]")
    page.wait_for_selector("#id_oldpassword[aria-invalid=true]")
    assert page.evaluate(FOCUSED) == "id_oldpassword"


def test_an_address_already_added_takes_the_focus_to_the_email_field(
    browser, live_server, make_user
):
    from allauth.account.models import EmailAddress

    user = make_user("pat@example.test", display_name="Pat", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    page = _sign_in(browser.new_context(viewport=PHONE), live_server.url, user.email)
    page.goto(f"{live_server.url}/accounts/email/")
    page.fill("#id_email", user.email)
    page.click("button[name=action_add]")
    page.wait_for_selector("#id_email[aria-invalid=true]")
    assert page.evaluate(FOCUSED) == "id_email"


def test_a_wrong_password_at_sign_in_takes_the_focus_to_the_error(browser, live_server, make_user):
    user = make_user("pat@example.test", display_name="Pat", password=PASSWORD)
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", user.email)
    page.fill("input[name=password]", "not-my-password")
    page.click("main button[type=submit]")
    page.wait_for_selector(".errorlist.nonfield")
    assert page.evaluate(FOCUSED) == "errorlist nonfield"
