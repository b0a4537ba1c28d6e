"""The settings page's bindings with no characters in the campaign: there is nothing to bind,
so no binding form (its id box led nowhere), only the line saying where characters come from."""

from __future__ import annotations

import re

import pytest

from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db

EMPTY = "No bindings yet: players create characters from the campaign page and are bound to them."


def test_with_no_characters_the_gm_gets_the_empty_line_and_no_binding_form(
    domains, client, campaign, gm, player
):
    join(campaign, gm, player)
    client.force_login(gm)

    html = client.get(f"/campaigns/{campaign.id}/settings").content.decode()

    section = html[html.index('aria-labelledby="h-bindings"') :]
    section = section[: section.index("</section>")]
    assert re.findall(r'<li class="muted">(.*?)</li>', section) == [EMPTY]
    assert 'id="id_bind_character"' not in section
    assert f'action="/campaigns/{campaign.id}/settings/bindings"' not in section
