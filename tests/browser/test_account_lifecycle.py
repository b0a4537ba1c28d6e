"""Invite link → sign up → accept terms → dashboard → sign out → sign in, in a real Chromium."""

import pytest

from apps.accounts.models import User
from apps.accounts.services import registration_invite_create
from apps.core.models import AuditEvent

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMAIL = "newcomer@example.test"
PASSWORD = "a-long-and-good-passphrase"


def test_invite_signup_terms_dashboard_signout_signin(browser, live_server, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "invite"
    _invite, raw = registration_invite_create(created_by=None)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)

    page.goto(f"{live_server.url}/accounts/signup/?invite={raw}")
    page.get_by_label("Email").fill(EMAIL)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)", exact=True).fill(PASSWORD)
    page.get_by_label("Display name").fill("Newcomer")
    page.get_by_role("button", name="Sign Up").click()

    page.wait_for_url("**/legal/accept**")
    page.get_by_label("I accept the terms of service and the privacy policy.").check()
    page.get_by_role("button", name="Accept and continue").click()
    page.wait_for_url(f"{live_server.url}/")
    assert page.get_by_role("heading", name="Welcome, Newcomer").is_visible()

    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/accounts/login/**")

    page.get_by_label("Email").fill(EMAIL)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(f"{live_server.url}/")
    assert page.get_by_role("heading", name="Welcome, Newcomer").is_visible()
    context.close()

    user = User.objects.get(email=EMAIL)
    assert user.terms_version == settings.SAGASMITH_TERMS_VERSION
    assert AuditEvent.objects.filter(actor=user, action="auth.login").count() == 2
    assert AuditEvent.objects.filter(actor=user, action="registration_invite.used").count() == 1
