"""The account page's forms in a real browser, at a phone's width: a refused entry is said on
its field, the focus is taken there, and what was typed is still there to correct."""

from __future__ import annotations

import pytest

from tests.browser.test_room_live import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
FOCUSED = "document.activeElement.id"
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def test_a_blank_display_name_is_refused_on_its_field_with_the_focus_there(
    browser, live_server, make_user
):
    from apps.accounts.models import User

    user = make_user("pat@example.test", display_name="Pat")
    page = _sign_in(browser.new_context(viewport=PHONE), live_server.url, user.email)
    page.goto(f"{live_server.url}/account/")
    page.fill("#id_display_name", "   ")
    page.click("button:has-text('Save display name')")
    page.wait_for_selector("#id_display_name[aria-invalid=true]")
    assert page.evaluate(FOCUSED) == "id_display_name"
    assert page.inner_text("#id_display_name_error") == "This field is required."
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert User.objects.get(pk=user.pk).display_name == "Pat"


def test_a_wrong_password_to_deactivate_is_said_on_its_field_with_the_focus_there(
    browser, live_server, make_user
):
    from apps.accounts.models import User

    user = make_user("pat@example.test", display_name="Pat")
    page = _sign_in(browser.new_context(viewport=PHONE), live_server.url, user.email)
    page.goto(f"{live_server.url}/account/")
    page.fill("#id_deactivate_password", "not-my-password")
    page.click("button:has-text('Deactivate my account')")
    page.wait_for_selector("#id_deactivate_password[aria-invalid=true]")
    assert page.evaluate(FOCUSED) == "id_deactivate_password"
    assert page.inner_text("#id_deactivate_password_error") == "The password is not correct."
    assert page.locator(".flash__item").count() == 0
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert User.objects.get(pk=user.pk).is_active is True


def test_a_refused_token_keeps_its_name_in_a_labelled_field_with_the_focus_there(
    browser, live_server, make_user
):
    from apps.accounts.models import ApiToken
    from apps.accounts.services import api_token_create

    user = make_user("pat@example.test", display_name="Pat")
    for n in range(20):
        api_token_create(user=user, name=f"tool {n}")
    page = _sign_in(browser.new_context(viewport=PHONE), live_server.url, user.email)
    page.goto(f"{live_server.url}/account/")
    # Named on the page, not by a placeholder that goes once something is typed.
    assert page.locator("label[for=id_token_name]").bounding_box()["width"] > 50
    page.fill("#id_token_name", "CI runner")
    page.click("button:has-text('Create token')")
    page.wait_for_selector("#id_token_name[aria-invalid=true]")
    assert page.evaluate(FOCUSED) == "id_token_name"
    assert page.inner_text("#id_token_name_error") == (
        "You already have 20 active tokens; revoke one first."
    )
    assert page.input_value("#id_token_name") == "CI runner"
    assert page.locator(".flash__item").count() == 0
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert ApiToken.objects.filter(user=user).count() == 20
