"""The sign-up form says what the optional display name is for, so a new GM does not skip it
and become "Member 3F2A9C" on every invite they send."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

HELP = (
    "What other players see in campaigns and rooms, and on the invites you send as a GM."
    " Left blank, you show as “Member” and a code until you choose one on your account page."
)


def test_the_display_name_field_says_what_it_is_for(client, settings):
    settings.SAGASMITH_REGISTRATION_MODE = "open"

    html = client.get("/accounts/signup/").content.decode()

    assert f'<span class="helptext" id="id_display_name_helptext">{HELP}</span>' in html, html
    assert 'aria-describedby="id_display_name_helptext"' in html
