"""The staff grant form says which zone its Expires date and time are read in: the site's
(settings.TIME_ZONE), which staff elsewhere could not guess from the two bare fields."""

import re

import pytest

pytestmark = pytest.mark.django_db

# The admin gives a two-input field's help no id: found within the field's row.
HELP = re.compile(
    r'<div class="form-row field-expires_at">(?:(?!form-row).)*?'
    r'<div class="help">\s*<div>(.*?)</div>',
    re.S,
)


def _expires_help(client) -> list[str]:
    response = client.get("/admin/quota/quotagrant/add/")
    assert response.status_code == 200
    return HELP.findall(response.content.decode())


def test_the_grant_form_says_its_expiry_is_in_utc(staff_client):
    client, _ = staff_client
    assert _expires_help(client) == [
        "Date and time in UTC. Leave both empty for credits that never expire."
    ]


def test_the_grant_form_names_the_sites_zone_when_it_is_another(staff_client, settings):
    client, _ = staff_client
    settings.TIME_ZONE = "Asia/Tokyo"
    assert _expires_help(client) == [
        "Date and time in Asia/Tokyo. Leave both empty for credits that never expire."
    ]


def test_each_expiry_input_is_named_with_its_zone(staff_client, settings):
    """The admin writes "Date:" and "Time:" beside the two inputs as bare words, tied to neither
    and not to the help: each input carries its own name, zone included."""
    client, _ = staff_client
    settings.TIME_ZONE = "Asia/Tokyo"
    html = client.get("/admin/quota/quotagrant/add/").content.decode()
    assert re.findall(r'<input [^>]*name="(expires_at_[01])"[^>]*aria-label="([^"]*)"', html) == [
        ("expires_at_0", "Expiry date, in Asia/Tokyo"),
        ("expires_at_1", "Expiry time, in Asia/Tokyo"),
    ]
