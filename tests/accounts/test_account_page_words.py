"""The account page's words: counts, times and refusals as a person reads them."""

import pytest
from django.contrib.messages import get_messages
from django.test import Client

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
