"""The sign-in form as the product's other forms read: labels without colons, the "remember
me" box before its words on one line, at a phone's width."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_the_sign_in_form_labels_read_as_the_other_forms_and_the_box_sits_by_its_words(
    browser, live_server, make_user
):
    make_user("pat@example.test", display_name="Pat")
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    labels = page.locator("main form label").all_inner_texts()
    assert labels == ["Email", "Password", "Remember me"]
    box = page.locator("#id_remember").bounding_box()
    words = page.locator("label[for=id_remember]").bounding_box()
    # The box first, then its words, on one line.
    assert box["x"] + box["width"] <= words["x"]
    assert abs((box["y"] + box["height"] / 2) - (words["y"] + words["height"] / 2)) < 6
    assert page.locator("#id_password_helptext").inner_text() == "Forgot your password?"
    page.get_by_label("Email").fill("pat@example.test")
    page.get_by_label("Password", exact=True).fill("wrong-password-here")
    page.get_by_label("Remember me").check()
    page.click("main form button[type=submit]")
    page.wait_for_selector("main form .errorlist")
    assert page.locator("main form .errorlist").all_inner_texts() == [
        "The email address and/or password you specified are not correct."
    ]
    assert page.input_value("#id_login") == "pat@example.test"
