"""A client's Idempotency-Key reaches the rules server inside the key of the write it asks for;
the server takes only printable ASCII of up to 200 characters, so a header key it would refuse
(accented, or long enough with the rest of the key) is sent as its digest: the character is
made, and a retry still replays it."""

from __future__ import annotations

import pytest

from apps.campaigns.models import Campaign
from apps.campaigns.services.authority import authority_write
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db

FIGHTER = {"name": "Ilsa", "template": "fighter", "level": 1}


@pytest.mark.parametrize("key", ["clé d'accès 0001", "k" * 200], ids=["accented", "long"])
def test_a_write_under_a_key_the_rules_would_refuse_as_sent_is_made_and_replayed(campaign, gm, key):
    before = Campaign.objects.get(pk=campaign.pk)  # a retry after a crash: projection unchanged
    arguments = {"name": "Ilsa", "template": "fighter", "level": 1}
    first = authority_write(
        campaign=campaign, tool="character_create", arguments=arguments, requester=gm, key=key
    )
    again = authority_write(
        campaign=before, tool="character_create", arguments=arguments, requester=gm, key=key
    )
    assert (first.idempotent_replay, again.idempotent_replay) == (False, True)
    assert again.structured["character"]["id"] == first.structured["character"]["id"]


def test_the_api_makes_a_character_under_an_accented_key(campaign, gm, player, api_client):
    join(campaign, gm, player)
    api_client.force_authenticate(player)
    response = api_client.post(
        f"/api/campaigns/{campaign.id}/characters",
        FIGHTER,
        format="json",
        HTTP_IDEMPOTENCY_KEY="clé d'accès 0002",
    )
    assert response.status_code == 201, response.content
    assert (response.json()["character_id"], response.json()["character_name"]) == ("pc-1", "Ilsa")
