"""A campaign name holding a character the rules servers refuse in one line of text (a control
character, a line or paragraph separator, a bidirectional override or isolate) is refused on the
name field, in the site's words, before any rules server is asked; at creation as at a rename."""

from __future__ import annotations

import pytest

from apps.campaigns.models import Campaign
from apps.campaigns.services.campaigns import campaign_name_clean
from apps.core.errors import ValidationFailed

pytestmark = pytest.mark.django_db

REFUSED = ["Ash\u202ekcatta", "Ash\u2028Grove", "Ash\x07Grove", "Ash\u2066Grove"]


@pytest.mark.parametrize("name", REFUSED)
def test_a_name_that_would_break_or_reorder_the_line_is_refused_on_its_field(name):
    with pytest.raises(ValidationFailed) as caught:
        campaign_name_clean(name)
    assert caught.value.details == {
        "fields": {"name": ["Use one line of text, without control or direction characters."]}
    }


def test_right_to_left_marks_and_inner_spaces_stay():
    assert campaign_name_clean("  \u05e9\u05dc\u05d5\u05dd\u200f Mr.\u00a0Ash ") == (
        "\u05e9\u05dc\u05d5\u05dd\u200f Mr.\u00a0Ash"
    )


def test_the_settings_form_shows_the_refusal_on_the_field_and_keeps_the_name(client, campaign, gm):
    client.force_login(gm)
    response = client.post(f"/campaigns/{campaign.id}/settings/name", {"name": "Ash\u202ekcatta"})
    assert response.status_code == 200
    assert response.context["name_form"].errors == {
        "name": ["Use one line of text, without control or direction characters."]
    }
    assert Campaign.objects.get(pk=campaign.pk).name == "The Sunless Citadel"
