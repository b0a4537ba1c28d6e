"""When a game system's rules server cannot be reached, the new-campaign form says what to do
next, keeps what was typed and the form's key (so trying again cannot make two campaigns),
and creates nothing."""

from __future__ import annotations

import re

import pytest

from apps.campaigns.models import Campaign

pytestmark = pytest.mark.django_db

UNREACHABLE = {"narrative": {"url": "http://127.0.0.1:1/mcp", "timeout": 1}}


def _token(html: str) -> str:
    return re.search(r'name="form_token" value="([0-9a-f]{32})"', html).group(1)


def test_an_unreachable_rules_server_is_explained_with_what_to_do(client, gm, settings):
    settings.SAGASMITH_DOMAINS = UNREACHABLE
    client.force_login(gm)
    token = _token(client.get("/campaigns/new").content.decode())

    response = client.post(
        "/campaigns/new", {"name": "Fog Harbour", "system_id": "narrative", "form_token": token}
    )

    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors == {
        "__all__": [
            "The Narrative (system-neutral) rules server is unavailable. No campaign was"
            " created: try again in a minute, or choose another game system."
        ]
    }
    html = response.content.decode()
    assert 'value="Fog Harbour"' in html
    assert _token(html) == token
    assert Campaign.objects.count() == 0
