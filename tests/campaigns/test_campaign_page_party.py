"""The campaign page's characters: the GM sees the whole party and who plays each character;
a player sees their own characters by name, without the internal id. The bindings list is a
manager's (the API gives a player only their own), so players do not see the party here."""

from __future__ import annotations

import pytest

from apps.campaigns.services import characters
from tests.campaigns.conftest import join

pytestmark = pytest.mark.django_db

LIDDA = {"name": "Lidda", "template": "rogue", "level": 1}


def _card(html: str, heading: str) -> str:
    start = html.index(f"<h2>{heading}</h2>")
    return " ".join(html[start : html.index("</section>", start)].split())


def test_the_gm_sees_the_party_with_who_plays_each_character(domains, client, campaign, gm, player):
    join(campaign, gm, player)
    characters.character_create_for(campaign=campaign, user=player, form_data=LIDDA)

    client.force_login(gm)
    html = client.get(f"/campaigns/{campaign.id}/").content.decode()

    assert _card(html, "Party") == (
        '<h2>Party</h2> <ul class="list"> <li><span><strong>Lidda</strong></span>'
        ' <span class="muted">Pat Player</span></li> </ul>'
    )


def test_the_gm_with_no_party_yet_is_told_how_characters_arrive(domains, client, campaign, gm):
    client.force_login(gm)
    html = client.get(f"/campaigns/{campaign.id}/").content.decode()

    assert _card(html, "Party") == (
        '<h2>Party</h2> <ul class="list"> <li class="muted">No characters yet:'
        " players create theirs from this page.</li> </ul>"
    )


def test_a_player_sees_their_character_by_name_without_its_id_and_not_the_party(
    domains, client, campaign, gm, player
):
    join(campaign, gm, player)
    lidda = characters.character_create_for(campaign=campaign, user=player, form_data=LIDDA)

    client.force_login(player)
    html = client.get(f"/campaigns/{campaign.id}/").content.decode()

    card = _card(html, "Your characters")
    assert "<strong>Lidda</strong>" in card
    assert lidda.character_id not in card
    assert "<h2>Party</h2>" not in html
