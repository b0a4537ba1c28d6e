"""The usage page lists the newest 50 active reservations and says how many more there are."""

import pytest

from apps.quota import services

from .test_usage_page import table

pytestmark = pytest.mark.django_db


def hold(user, n):
    for i in range(n):
        services.quota_reserve(user=user, amount=1, key=f"k{i}")


def usage_page_holding(client, user, funded, n):
    """The usage page of a user with 60 credits, `n` of them held by open reservations."""
    funded(user, 60)
    hold(user, n)
    client.force_login(user)
    return client.get("/usage/").content.decode()


def test_usage_page_says_how_many_more_reservations_are_not_listed(client, user, funded):
    html = usage_page_holding(client, user, funded, 53)
    assert len(table(html, "usage-reservations")) == 50
    assert (
        '<p class="muted small" id="usage-reservations-more">'
        "3 more reservations in progress are not listed here.</p>"
    ) in html


def test_usage_page_says_1_more_reservation_is_not_listed(client, user, funded):
    html = usage_page_holding(client, user, funded, 51)
    assert (
        '<p class="muted small" id="usage-reservations-more">'
        "1 more reservation in progress is not listed here.</p>"
    ) in html


def test_usage_page_says_nothing_more_when_all_reservations_are_listed(client, user, funded):
    html = usage_page_holding(client, user, funded, 50)
    assert len(table(html, "usage-reservations")) == 50
    assert 'id="usage-reservations-more"' not in html
