"""What the campaign pages and API refuse, and how they say it."""

from __future__ import annotations

import uuid

import pytest

from apps.campaigns.models import Campaign

pytestmark = pytest.mark.django_db

INVISIBLE_NAME = "\u200b\u2060\u200b"  # zero-width space, word joiner: strip() keeps both


def test_api_refuses_a_campaign_name_of_invisible_characters(domains, api_client, gm):
    api_client.force_login(gm)
    response = api_client.post(
        "/api/campaigns",
        {"name": INVISIBLE_NAME, "system_id": "dnd5e"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "invalid_request",
        "message": "A campaign name needs a visible character.",
        "retryable": False,
        "recovery": "Correct the highlighted fields and try again.",
        "details": {"fields": {"name": ["Enter a name that shows."]}},
    }
    assert Campaign.objects.count() == 0


def test_create_page_shows_the_invisible_name_error_on_the_name_field(domains, client, gm):
    client.force_login(gm)
    response = client.post(
        "/campaigns/new",
        {"name": INVISIBLE_NAME, "system_id": "dnd5e", "form_token": uuid.uuid4().hex},
    )
    assert response.status_code == 200
    assert response.context["form"].errors == {"name": ["Enter a name that shows."]}
    assert Campaign.objects.count() == 0
