"""The account page's words: counts, times and refusals as a person reads them."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone

from apps.accounts.models import ApiToken, User, UserSession
from apps.accounts.services import api_token_create

pytestmark = pytest.mark.django_db
PASSWORD = "s3cret-passw0rd!"


def login(email, **headers):
    client = Client(**headers)
    response = client.post("/accounts/login/", {"login": email, "password": PASSWORD})
    assert response.status_code == 302, response.content
    client.get("/")  # shows (and so clears) the "signed in" message
    return client


def _flash(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.parametrize(
    ("others", "said"),
    [
        (0, "No other session was signed in."),
        (1, "Signed out 1 other session."),
        (2, "Signed out 2 other sessions."),
    ],
)
def test_signing_out_elsewhere_counts_the_sessions_in_words(make_user, others, said):
    user = make_user("multi@example.test")
    current = login(user.email)
    for _ in range(others):
        login(user.email)
    response = current.post("/account/sessions/end-others")
    assert response.status_code == 302
    assert _flash(response) == [said]


def test_a_session_seen_within_the_minute_was_seen_just_now(make_user):
    user = make_user("seen@example.test")
    current = login(user.email, HTTP_USER_AGENT="Firefox")
    other = login(user.email, HTTP_USER_AGENT="Chromium")
    UserSession.objects.filter(session_key=other.session.session_key).update(
        last_seen_at=timezone.now() - timedelta(minutes=5, seconds=10)
    )
    page = current.get("/account/").content.decode()
    cells = re.findall(r'<td class="nowrap">([^<]*)</td>', page)
    # IP, last seen; for each session, the current one first.
    assert [cells[1], cells[3]] == ["just now", "5\xa0minutes ago"]
    assert "0\xa0minutes" not in page


def test_a_token_used_within_the_minute_was_used_just_now(make_user):
    user = make_user("tok@example.test")
    client = login(user.email)
    token, _raw = api_token_create(user=user, name="laptop")
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    page = client.get("/account/").content.decode()
    assert re.findall(r'<span class="muted small">(used [^<]*)</span>', page) == ["used just now"]


def test_the_terms_acceptance_names_the_version_and_a_time_with_its_zone(make_user):
    user = make_user("terms@example.test")
    User.objects.filter(pk=user.pk).update(
        terms_accepted_at=datetime(2026, 12, 6, 14, 5, tzinfo=UTC)
    )
    page = login(user.email).get("/account/").content.decode()
    fact = re.findall(r"<dt>Terms accepted</dt><dd>(.*?)</dd>", page, re.S)
    assert fact == [
        f'<a href="/legal/terms">version {settings.SAGASMITH_TERMS_VERSION}</a>'
        ', on <time datetime="2026-12-06T14:05:00+00:00" data-local="datetime">'
        '<span class="nowrap">Dec 6, 2026,</span> <span class="nowrap">2:05 PM UTC</span></time>'
    ]
