"""The account emails speak in SagaSmith's own plain words, not allauth's ("You're receiving this
email because user … has given your email address …"), and still carry every link and detail
allauth gives them: each is sent through its real flow and its whole body checked."""

import re
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
PASSWORD = "s3cret-passw0rd!"
NEW_PASSWORD = "brand-new-passw0rd"
SIGN_OFF = "\n\nHappy adventuring,\nThe SagaSmith team\nlocalhost"


def _signed_in(email, password=PASSWORD, **headers):
    client = Client(**headers)
    assert (
        client.post("/accounts/login/", {"login": email, "password": password}).status_code == 302
    )
    return client


def _reset_link(body):
    return re.search(r"http://testserver/accounts/password/reset/key/\S+", body).group(0)


def test_the_signup_confirmation_email_is_in_our_words(settings, mailoutbox):
    settings.SAGASMITH_REGISTRATION_MODE = "open"
    Client().post(
        "/accounts/signup/",
        {"email": "verify@example.test", "password1": PASSWORD, "password2": PASSWORD},
    )
    [mail] = mailoutbox
    link = re.search(r"http://testserver/accounts/confirm-email/\S+/", mail.body).group(0)
    assert mail.body == (
        "Hi,\n\n"
        "Please confirm that verify@example.test is your email address on SagaSmith by opening"
        " this link:\n\n"
        f"{link}\n\n"
        "If you didn't sign up or add this address, you can ignore this email: nothing changes"
        " until the link is opened." + SIGN_OFF
    )


def test_the_password_reset_email_is_in_our_words(make_user, mailoutbox):
    make_user("forgot@example.test")
    assert Client().post("/accounts/password/reset/", {"email": "forgot@example.test"}).status_code
    [mail] = mailoutbox
    assert mail.body == (
        "Hi,\n\n"
        "Someone asked to reset the password for your SagaSmith account. If it was you, choose a"
        " new password here:\n\n"
        f"{_reset_link(mail.body)}\n\n"
        "If it wasn't you, ignore this email: your password stays as it is." + SIGN_OFF
    )


def test_signing_up_with_a_taken_address_sends_an_email_in_our_words(
    settings, make_user, mailoutbox
):
    # allauth sends it, rather than saying the address is taken, when confirming is mandatory
    # (production's default).
    settings.SAGASMITH_REGISTRATION_MODE = "open"
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    make_user("taken@example.test")
    Client().post(
        "/accounts/signup/",
        {"email": "taken@example.test", "password1": PASSWORD, "password2": PASSWORD},
    )
    [mail] = mailoutbox
    assert mail.body == (
        "Hi,\n\n"
        "Someone tried to sign up for SagaSmith with taken@example.test, but there is already an"
        " account with this address. If it was you, sign in instead; if you've forgotten your"
        " password, choose a new one here:\n\n"
        "http://testserver/accounts/password/reset/\n\n"
        "If it wasn't you, you can ignore this email." + SIGN_OFF
    )


@pytest.mark.parametrize(
    ("mode", "offer"),
    [
        ("open", "If it was you and you'd like an account, sign up here:\n\n"
                 "http://testserver/accounts/signup/"),
        ("invite", "Accounts on SagaSmith are by invitation. If you were invited, sign up with the"
                   " registration link you were sent; without one, ask the person who invited you"
                   " for a link."),
        ("closed", "SagaSmith is not taking new accounts at the moment."),
    ],
)  # fmt: skip
def test_a_reset_for_an_unknown_address_sends_an_email_in_our_words(
    settings, mailoutbox, mode, offer
):
    settings.SAGASMITH_REGISTRATION_MODE = mode
    Client().post("/accounts/password/reset/", {"email": "nobody@example.test"})
    [mail] = mailoutbox
    assert mail.body == (
        "Hi,\n\n"
        "Someone asked to reset the password for a SagaSmith account with nobody@example.test,"
        " but there is no account with this address.\n\n"
        f"{offer}\n\n"
        "If it wasn't you, you can ignore this email." + SIGN_OFF
    )


AT = datetime(2026, 12, 6, 9, 30, tzinfo=UTC)


def _notice(what):
    return (
        "Hi,\n\n"
        f"{what}\n\n"
        "If that was you, there's nothing more to do. If it wasn't, reset your password from"
        " the sign-in page straight away.\n\n"
        "The change came from:\n"
        "- IP address: 127.0.0.1\n"
        "- Browser: TestBrowser/1.0\n"
        "- Date: Dec 6, 2026, 9:30 AM UTC" + SIGN_OFF
    )


@pytest.fixture
def notices_on(settings, monkeypatch):
    # Notices are allauth's ACCOUNT_EMAIL_NOTIFICATIONS; the date they name is fixed here.
    settings.ACCOUNT_EMAIL_NOTIFICATIONS = True
    monkeypatch.setattr("allauth.account.adapter.timezone", SimpleNamespace(now=lambda: AT))


def test_the_password_changed_notice_is_in_our_words(notices_on, make_user, mailoutbox):
    make_user("changer@example.test")
    client = _signed_in("changer@example.test", HTTP_USER_AGENT="TestBrowser/1.0")
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert [m.body for m in mailoutbox] == [_notice("Your SagaSmith password was just changed.")]


def test_the_password_reset_notice_is_in_our_words(notices_on, make_user, mailoutbox):
    make_user("forgot@example.test")
    client = Client(HTTP_USER_AGENT="TestBrowser/1.0")
    client.post("/accounts/password/reset/", {"email": "forgot@example.test"})
    page = client.get(
        _reset_link(mailoutbox[0].body).removeprefix("http://testserver"), follow=True
    )
    form_url = page.redirect_chain[-1][0]
    done = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert [m.body for m in mailoutbox[1:]] == [
        _notice("Your SagaSmith password was just reset with the link we emailed you.")
    ]
