"""allauth's account pages speak as the rest of the product does: headings, buttons and the
window title in sentence case ("Change password", not "Change Password")."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

pytestmark = pytest.mark.django_db


def words(response) -> dict[str, list[str]]:
    """The page's title (without the site name), and the headings and buttons of its <main>."""
    html = response.content.decode()
    main = re.search(r"<main\b.*?</main>", html, re.S).group(0)

    def texts(tag, where):
        found = re.findall(rf"<{tag}\b[^>]*>(.*?)</{tag}>", where, re.S)
        return [" ".join(re.sub(r"<[^>]+>", " ", text).split()) for text in found]

    title = texts("title", html)[0].removesuffix(" · SagaSmith")
    return {"title": [title], "h1": texts("h1", main), "h2": texts("h2", main),
            "button": texts("button", main)}  # fmt: skip


@pytest.mark.parametrize(
    ("url", "signed_in", "expected"),
    [
        ("/accounts/email/", True, {
            "title": ["Email addresses"], "h1": ["Email addresses"], "h2": ["Add an email address"],
            "button": ["Make primary", "Re-send confirmation", "Remove", "Add email"]}),
        ("/accounts/password/change/", True, {
            "title": ["Change password"], "h1": ["Change password"], "h2": [],
            "button": ["Change password"]}),
        ("/accounts/logout/", True, {
            "title": ["Sign out"], "h1": ["Sign out"], "h2": [], "button": ["Sign out"]}),
        ("/accounts/reauthenticate/", True, {
            "title": ["Confirm it is you"], "h1": ["Confirm it is you"],
            "h2": ["Alternative options"], "button": ["Confirm"]}),
        ("/accounts/confirm-email/", True, {
            "title": ["Confirm your email address"], "h1": ["Confirm your email address"],
            "h2": [], "button": []}),
        ("/accounts/confirm-email/not-a-key/", False, {
            "title": ["Confirm email address"], "h1": ["Confirm email address"], "h2": [],
            "button": []}),
        ("/accounts/password/reset/", False, {
            "title": ["Reset password"], "h1": ["Reset password"], "h2": [],
            "button": ["Reset my password"]}),
        ("/accounts/password/reset/done/", False, {
            "title": ["Reset password"], "h1": ["Reset password"], "h2": [], "button": []}),
        ("/accounts/password/reset/key/1-not-a-key/", False, {
            "title": ["Change password"], "h1": ["Link not valid"], "h2": [], "button": []}),
        ("/accounts/password/reset/key/done/", False, {
            "title": ["Change password"], "h1": ["Change password"], "h2": [], "button": []}),
    ],
)  # fmt: skip
def test_allauth_pages_use_sentence_case_headings_and_buttons(make_user, url, signed_in, expected):
    client = Client()
    if signed_in:
        user = make_user("reader@example.test")
        EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
        # A second address, so the email page offers every action on its list.
        EmailAddress.objects.create(user=user, email="second@example.test", verified=False)
        client.force_login(user)
    response = client.get(url, follow=True)
    assert response.status_code == 200
    assert words(response) == expected


@pytest.mark.parametrize(
    ("mode", "url", "expected"),
    [
        ("open", "/accounts/login/", {
            "title": ["Sign in"], "h1": ["Sign in"], "h2": [], "button": ["Sign in"]}),
        ("open", "/accounts/signup/", {
            "title": ["Sign up"], "h1": ["Sign up"], "h2": [], "button": ["Sign up"]}),
        ("closed", "/accounts/signup/", {
            "title": ["Sign-up closed"], "h1": ["Sign-up closed"], "h2": [], "button": []}),
        ("invite", "/accounts/signup/", {
            "title": ["Sign up by invitation"], "h1": ["Sign up by invitation"], "h2": [],
            "button": []}),
        ("invite", "/accounts/signup/?invite=not-a-real-invite", {
            "title": ["Invite link not valid"], "h1": ["Invite link not valid"], "h2": [],
            "button": []}),
        ("open", "/accounts/inactive/", {
            "title": ["Account inactive"], "h1": ["Account inactive"], "h2": [], "button": []}),
    ],
)  # fmt: skip
def test_the_sign_in_and_sign_up_pages_use_sentence_case(settings, mode, url, expected):
    settings.SAGASMITH_REGISTRATION_MODE = mode
    response = Client().get(url)
    assert response.status_code == 200
    assert words(response) == expected
