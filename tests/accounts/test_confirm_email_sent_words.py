"""The page after an address is sent its confirmation link speaks plainly, as the rest of the
product does: no "verification" or "signup process", and no "contact us" with nowhere to write."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

pytestmark = pytest.mark.django_db


def test_confirmation_sent_page_says_what_happened_and_what_to_do_in_plain_words(make_user):
    user = make_user("reader@example.test")
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    client = Client()
    client.force_login(user)
    response = client.get("/accounts/confirm-email/")
    assert response.status_code == 200
    main = re.search(r"<main\b.*?</main>", response.content.decode(), re.S).group(0)
    paragraphs = [
        " ".join(re.sub(r"<[^>]+>", " ", text).split())
        for text in re.findall(r"<p\b[^>]*>(.*?)</p>", main, re.S)
    ]
    assert paragraphs == [
        "We have sent you an email with a link. Open the link to confirm that the address is"
        " yours.",
        "If the email has not arrived within a few minutes, look in your spam or junk folder.",
    ]
