"""A changed password is told to the account's owner by email out of the box: whoever changed
it may not be them."""

import pytest

from tests.accounts.test_email_bodies_in_our_words import NEW_PASSWORD, PASSWORD, _signed_in

pytestmark = pytest.mark.django_db


def test_a_password_change_emails_the_owner_without_any_setting(make_user, mailoutbox):
    make_user("owner@example.test")
    client = _signed_in("owner@example.test")
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert [(m.to, m.subject) for m in mailoutbox] == [
        (["owner@example.test"], "[SagaSmith] Password changed")
    ]
    assert "Your SagaSmith password was just changed." in mailoutbox[0].body
