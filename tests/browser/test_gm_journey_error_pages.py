"""The pages a player lands on when something is wrong name the trouble in words, in the tab's
title and the heading, not as a bare status number, and offer a way onward."""

from __future__ import annotations

import uuid

import pytest

from tests.browser.test_campaign_join import _sign_in


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_campaign_that_is_not_yours_is_a_page_not_found_in_words(browser, live_server, make_user):
    make_user("player@example.test", display_name="Pat Player")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = _sign_in(context, live_server, "player@example.test")

    page.goto(f"{live_server.url}/campaigns/{uuid.uuid4()}/")
    assert page.title() == "Page not found · SagaSmith"
    assert page.locator("main h1").all_inner_texts() == ["Page not found"]
    assert page.inner_text("main .card p") == (
        "This campaign does not exist, or you are not a member of it. If you left it or were "
        "removed, ask its GM for a new invite."
    )
    page.click("text=Back to the dashboard")
    page.wait_for_url(f"{live_server.url}/")

    page.goto(f"{live_server.url}/no-such-page/")
    assert page.title() == "Page not found · SagaSmith"
    assert page.locator("main h1").all_inner_texts() == ["Page not found"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_form_sent_without_its_security_check_is_named_in_words(browser, live_server, make_user):
    make_user("player@example.test", display_name="Pat Player")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    # As when the page was left open past its cookie, or the browser dropped it.
    context.clear_cookies()
    page.fill("input[name=login]", "player@example.test")
    page.fill("input[name=password]", "s3cret-passw0rd!")
    page.click("main form button[type=submit]")

    assert page.title() == "Form not accepted · SagaSmith"
    assert page.locator("main h1").all_inner_texts() == ["Form not accepted"]
