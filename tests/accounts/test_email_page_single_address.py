"""With one email address there is nothing to make primary or remove: the email page offers
only what can be done with it, and says how to change the address."""

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from tests.accounts.test_allauth_pages_sentence_case import words
from tests.accounts.test_registration import main_text

pytestmark = pytest.mark.django_db
HOW_TO_CHANGE = (
    "This is your sign-in address. To change it, add the new address below, confirm it, then"
    " make it primary."
)


@pytest.mark.parametrize(
    ("verified", "buttons", "badges"),
    [
        (True, ["Add email"], "reader@example.test Verified Primary"),
        (False, ["Re-send confirmation", "Add email"], "reader@example.test Unverified Primary"),
    ],
)
def test_the_email_page_offers_no_primary_or_remove_for_a_single_address(
    make_user, verified, buttons, badges
):
    user = make_user("reader@example.test")
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=verified)
    client = Client()
    client.force_login(user)
    response = client.get("/accounts/email/")
    assert words(response)["button"] == buttons
    page = main_text(response)
    assert f"{badges} {HOW_TO_CHANGE}" in page
    assert 'type="radio"' not in response.content.decode()


def test_re_sending_the_confirmation_of_a_single_address_still_works(make_user, mailoutbox):
    user = make_user("reader@example.test")
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=False)
    client = Client()
    client.force_login(user)
    response = client.post("/accounts/email/", {"action_send": "", "email": user.email})
    assert response.status_code == 302
    assert [m.to for m in mailoutbox] == [["reader@example.test"]]
