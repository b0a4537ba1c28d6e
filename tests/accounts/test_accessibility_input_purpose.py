"""A field asking for something about the user says what it is, so browsers and assistive tools
can offer to fill it in (WCAG 2.1 1.3.5): the display name is the user's nickname."""

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _input(html: str, name: str) -> str:
    tags = re.findall(rf'<input[^>]*\bname="{name}"[^>]*>', html)
    assert len(tags) == 1, tags
    return tags[0]


def test_the_account_pages_display_name_field_is_marked_as_the_users_nickname(make_user):
    client = Client()
    client.force_login(make_user("gail@example.test"))
    field = _input(client.get("/account/").content.decode(), "display_name")
    assert re.findall(r'\bautocomplete="([^"]*)"', field) == ["nickname"]


def test_the_sign_up_pages_display_name_field_is_marked_as_the_users_nickname(settings):
    settings.SAGASMITH_REGISTRATION_MODE = "open"
    field = _input(Client().get("/accounts/signup/").content.decode(), "display_name")
    assert re.findall(r'\bautocomplete="([^"]*)"', field) == ["nickname"]
