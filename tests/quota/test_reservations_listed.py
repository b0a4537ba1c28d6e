"""The usage page lists the newest 50 active reservations and says how many more there are."""

import pytest

from apps.quota import services

from .test_usage_page import table

pytestmark = pytest.mark.django_db


def hold(user, n):
    for i in range(n):
        services.quota_reserve(user=user, amount=1, key=f"k{i}")


def test_usage_page_says_how_many_more_reservations_are_not_listed(client, user, funded):
    funded(user, 60)
    hold(user, 53)
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    assert len(table(html, "usage-reservations")) == 50
    assert (
        '<p class="muted small" id="usage-reservations-more">'
        "3 more reservations in progress are not listed here.</p>"
    ) in html


def test_usage_page_says_1_more_reservation_is_not_listed(client, user, funded):
    funded(user, 60)
    hold(user, 51)
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    assert (
        '<p class="muted small" id="usage-reservations-more">'
        "1 more reservation in progress is not listed here.</p>"
    ) in html


def test_usage_page_says_nothing_more_when_all_reservations_are_listed(client, user, funded):
    funded(user, 60)
    hold(user, 50)
    client.force_login(user)
    html = client.get("/usage/").content.decode()
    assert len(table(html, "usage-reservations")) == 50
    assert 'id="usage-reservations-more"' not in html
