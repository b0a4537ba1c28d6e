"""After a password reset is asked for, the page says what was sent and where to look, in plain
words, without "contact us" when the product offers nowhere to write."""

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_reset_sent_page_says_what_was_sent_and_where_to_look(db):
    response = Client().get("/accounts/password/reset/done/")
    main = re.search(r"<main\b.*?</main>", response.content.decode(), re.S).group(0)
    paragraphs = [
        " ".join(re.sub(r"<[^>]+>", " ", text).split())
        for text in re.findall(r"<p\b[^>]*>(.*?)</p>", main, re.S)
    ]
    assert paragraphs == [
        "We have sent an email to that address with what to do next.",
        "If the email has not arrived within a few minutes, look in your spam or junk folder.",
    ]


def test_reset_page_says_what_happens_and_offers_no_contact_it_cannot_give(db):
    response = Client().get("/accounts/password/reset/")
    main = re.search(r"<main\b.*?</main>", response.content.decode(), re.S).group(0)
    paragraphs = [
        " ".join(re.sub(r"<[^>]+>", " ", text).split())
        for text in re.findall(r"<p\b[^>]*>(.*?)</p>", main, re.S)
        if "helptext" not in text
    ]
    assert paragraphs == [
        "Enter the email address you sign in with, and we will send it a link to choose a new"
        " password.",
        "Remembered it? Sign in",
    ]
    assert '<a href="/accounts/login/">Sign in</a>' in main
